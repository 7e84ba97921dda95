// Package examples holds two small MCP servers with the same tools on typed input structs: one
// on the Go SDK (github.com/modelcontextprotocol/go-sdk), one on mark3labs/mcp-go. Their tools
// have no effects: they answer with a line of text.
package examples

import (
	"context"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Alarm is the input of set_alarm.
type Alarm struct {
	Hour  int      `json:"hour" jsonschema:"hour of the day, 0 to 23"`
	Label string   `json:"label,omitempty" jsonschema:"what the alarm is for"`
	Days  []string `json:"days,omitempty" jsonschema:"days of the week it rings"`
	Loud  bool     `json:"loud,omitempty"`
}

// Note is the input of send_note.
type Note struct {
	To       string  `json:"to" jsonschema:"who gets the note"`
	Body     string  `json:"body"`
	Priority int     `json:"priority,omitempty"`
	Weight   float64 `json:"weight,omitempty"`
	Meta     *Meta   `json:"meta,omitempty"`
}

// Meta is a nested object of Note.
type Meta struct {
	Tags []string `json:"tags"`
	Ref  string   `json:"ref,omitempty"`
}

func alarmText(a Alarm) string {
	return fmt.Sprintf("alarm at %d:00 (%d days)", a.Hour, len(a.Days))
}

func noteText(n Note) string {
	return fmt.Sprintf("note of %d bytes queued", len(n.Body)+len(strings.TrimSpace(n.To)))
}

// GoSDK is the server on the Go SDK: it validates arguments against the schema it infers from
// the structs (google/jsonschema-go) before unmarshaling them.
func GoSDK() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "toolproof-example-gosdk", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "set_alarm", Description: "Set an alarm."},
		func(_ context.Context, _ *mcp.CallToolRequest, a Alarm) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: alarmText(a)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "send_note", Description: "Send a note."},
		func(_ context.Context, _ *mcp.CallToolRequest, n Note) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: noteText(n)}}}, nil, nil
		})
	return s
}

// MCPGo is the server on mark3labs/mcp-go with typed handlers (mcp.NewTypedToolHandler, which
// binds arguments with encoding/json); validate adds server.WithInputSchemaValidation, which
// checks them against the schema first.
func MCPGo(validate bool) *server.MCPServer {
	var opts []server.ServerOption
	name := "toolproof-example-mcpgo"
	if validate {
		opts = append(opts, server.WithInputSchemaValidation())
		name += "-validating"
	}
	s := server.NewMCPServer(name, "0.1.0", opts...)
	s.AddTool(mcpgo.NewTool("set_alarm", mcpgo.WithDescription("Set an alarm."), mcpgo.WithInputSchema[Alarm]()),
		mcpgo.NewTypedToolHandler(func(_ context.Context, _ mcpgo.CallToolRequest,
			a Alarm) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(alarmText(a)), nil
		}))
	s.AddTool(mcpgo.NewTool("send_note", mcpgo.WithDescription("Send a note."), mcpgo.WithInputSchema[Note]()),
		mcpgo.NewTypedToolHandler(func(_ context.Context, _ mcpgo.CallToolRequest,
			n Note) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(noteText(n)), nil
		}))
	return s
}
