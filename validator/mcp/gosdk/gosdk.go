// Package gosdk checks a Go MCP server's gate inside go test, with no subprocess: Validator
// connects toolproof's MCP client to a github.com/modelcontextprotocol/go-sdk *mcp.Server (MCPGo
// to a mark3labs/mcp-go *server.MCPServer) over in-memory pipes, each session a fresh
// connection, and returns a validator.Validator to pass to harness.Check or harness.Run.
// HTTPValidator does the same over Streamable HTTP, through the SDK's own handler on a
// loopback httptest.Server; toolmcp.StartHandler takes any http.Handler.
//
// It is a nested module so that the SDKs stay out of the main module's dependencies.
package gosdk

import (
	"context"
	"io"
	"net/http"

	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	toolmcp "github.com/toolproof/toolproof/validator/mcp"
)

// Validator starts toolproof's MCP client on s. opts sets patterns, tool filters and timeouts;
// its Command and Dial are ignored. The caller closes the client.
func Validator(s *mcp.Server, opts toolmcp.Options) (*toolmcp.Client, error) {
	return start(opts, func(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
		ss, err := s.Connect(ctx, &mcp.IOTransport{Reader: r, Writer: w}, nil)
		if err != nil {
			return err
		}
		return ss.Wait()
	})
}

// HTTPValidator serves s with the Go SDK's Streamable HTTP handler (hopts: stateless, JSON
// answers; nil is the SDK's default, sessions and event streams) on a loopback httptest.Server
// and starts toolproof's MCP client on it. opts.Header goes on every request (a handler behind
// auth middleware). The caller closes the client, which stops the server.
func HTTPValidator(s *mcp.Server, opts toolmcp.Options, hopts *mcp.StreamableHTTPOptions) (*toolmcp.Client, error) {
	return toolmcp.StartHandler(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, hopts), opts)
}

// MCPGo is Validator for a mark3labs/mcp-go server.
func MCPGo(s *server.MCPServer, opts toolmcp.Options) (*toolmcp.Client, error) {
	return start(opts, func(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error {
		defer w.Close()
		return server.NewStdioServer(s).Listen(ctx, r, w)
	})
}

// start dials serve on a new pair of pipes for every session.
func start(opts toolmcp.Options,
	serve func(ctx context.Context, r io.ReadCloser, w io.WriteCloser) error) (*toolmcp.Client, error) {
	opts.Command = nil
	opts.Dial = func() (toolmcp.Conn, error) {
		toServer, clientW := io.Pipe()
		clientR, fromServer := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			err := serve(ctx, toServer, fromServer)
			fromServer.CloseWithError(eofOr(err))
			toServer.Close()
		}()
		return &pipeConn{r: clientR, w: clientW, cancel: cancel}, nil
	}
	return toolmcp.Start(opts)
}

func eofOr(err error) error {
	if err == nil {
		return io.EOF
	}
	return err
}

// pipeConn is the client's end of an in-memory session.
type pipeConn struct {
	r      *io.PipeReader
	w      *io.PipeWriter
	cancel context.CancelFunc
}

func (p *pipeConn) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipeConn) Write(b []byte) (int, error) { return p.w.Write(b) }

// Close ends the session: the server sees its input end, and reads here end.
func (p *pipeConn) Close() error {
	p.cancel()
	p.w.Close()
	return p.r.Close()
}
