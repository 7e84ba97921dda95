package mcp_test

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/toolproof/toolproof/validator/mcp"
)

// pipeConn is a client's end of an in-memory server: what it reads and what it writes.
type pipeConn struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipeConn) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

// messageID finds a numeric JSON-RPC id in a message.
var messageID = regexp.MustCompile(`"id":(\d+)`)

// idOf is the numeric id of msg, "" when it has none.
func idOf(msg string) string {
	if m := messageID.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
}

// pipeServer is an in-memory stdio server named name that lists one tool, "t" of schema
// {"type":"object"}: it answers initialize (2025-06-18) and tools/list itself, hands every
// tools/call message to call, which writes its answers to w, and refuses any other request
// with -32601.
func pipeServer(name string, call func(w io.Writer, msg string)) func() (mcp.Conn, error) {
	return func() (mcp.Conn, error) {
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		go func() {
			defer sw.Close()
			sc := bufio.NewScanner(sr)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				msg := sc.Text()
				id := idOf(msg)
				switch {
				case strings.Contains(msg, `"initialize"`):
					fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18",`+
						`"serverInfo":{"name":%q}}}`+"\n", id, name)
				case strings.Contains(msg, `"tools/list"`):
					fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t",`+
						`"inputSchema":{"type":"object"}}]}}`+"\n", id)
				case strings.Contains(msg, `"tools/call"`):
					call(sw, msg)
				case id != "":
					fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+
						"\n", id)
				}
			}
		}()
		return pipeConn{cr, cw}, nil
	}
}

// emptyResult is the answer to the call msg: a result of no content.
func emptyResult(msg string) string {
	return `{"jsonrpc":"2.0","id":` + idOf(msg) + `,"result":{"content":[]}}`
}
