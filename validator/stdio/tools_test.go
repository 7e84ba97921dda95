package stdio

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator"
)

// A child that serves tools runs in the test binary: TestToolsHelperProcess with toolsFakeEnv
// naming what it answers to {"op":"tools"}.
const toolsFakeEnv = "TOOLPROOF_STDIO_TOOLS_FAKE"

// The tools the "serve" fake lists: parameters must reach toolproof byte for byte.
const servedList = `[{"name":"read","description":"Read a file","parameters":{"type":"object",` +
	`"properties":{"path":{"type":"string","minLength":1}},"required":["path"],"additionalProperties":false}},` +
	`{"name":"ping","parameters":{"type":"object"}}]`

func TestToolsHelperProcess(t *testing.T) {
	behaviour := os.Getenv(toolsFakeEnv)
	if behaviour == "" {
		t.Skip("runs only as a fake adapter")
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		var m struct {
			Op   string          `json:"op"`
			ID   json.Number     `json:"id"`
			Tool json.RawMessage `json:"tool"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch m.Op {
		case "hello":
			tools := `,"tools":true`
			if behaviour == "silent" {
				tools = "" // an old adapter: says nothing about tools
			}
			fmt.Printf(`{"op":"hello","protocol":"toolproof/1","name":"toolfake","version":"1"%s}`+"\n", tools)
		case "tools":
			switch behaviour {
			case "serve":
				fmt.Printf(`{"op":"tools","tools":%s}`+"\n", servedList)
			case "error":
				fmt.Println(`{"op":"tools","error":"the module exports no tools"}`)
			case "noname":
				fmt.Println(`{"op":"tools","tools":[{"description":"x","parameters":{}}]}`)
			case "die":
				os.Exit(3)
			}
		case "tool":
			var tl struct{ Name string }
			json.Unmarshal(m.Tool, &tl)
			fmt.Printf(`{"op":"tool","name":%q,"ok":true}`+"\n", tl.Name)
		case "validate":
			fmt.Printf(`{"op":"result","id":%s,"valid":true}`+"\n", m.ID)
		}
	}
	os.Exit(0)
}

func startToolsFake(t *testing.T, behaviour string, processes int) *Client {
	t.Helper()
	c, err := Start(Options{
		Command:   []string{os.Args[0], "-test.run=^TestToolsHelperProcess$"},
		Env:       fakeEnviron(toolsFakeEnv + "=" + behaviour),
		Processes: processes,
		Stderr:    io.Discard,
	})
	if err != nil {
		t.Fatalf("starting the %s fake: %v", behaviour, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestServedTools(t *testing.T) {
	for _, procs := range []int{1, 2} {
		t.Run(fmt.Sprintf("processes=%d", procs), func(t *testing.T) {
			c := startToolsFake(t, "serve", procs)
			if !c.ServesTools() {
				t.Fatal(`ServesTools() = false after a hello with "tools": true`)
			}
			src, ok := c.Validator().(validator.ToolSource)
			if !ok {
				t.Fatalf("Validator() is a %T, not a validator.ToolSource", c.Validator())
			}
			tools, err := src.Tools()
			if err != nil {
				t.Fatal(err)
			}
			var want []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			}
			if err := json.Unmarshal([]byte(servedList), &want); err != nil {
				t.Fatal(err)
			}
			if len(tools) != len(want) {
				t.Fatalf("got %d tools, want %d", len(tools), len(want))
			}
			for i, tl := range tools {
				if tl.Name != want[i].Name || tl.Description != want[i].Description ||
					string(tl.Parameters) != string(want[i].Parameters) {
					t.Errorf("tool %d: got %q %q %s, want %q %q %s", i, tl.Name, tl.Description, tl.Parameters,
						want[i].Name, want[i].Description, want[i].Parameters)
				}
				if !strings.Contains(tl.Source, "toolfake") ||
					!strings.Contains(tl.Source, fmt.Sprintf("tools[%d]", i)) {
					t.Errorf("tool %d: Source %q does not say where it came from", i, tl.Source)
				}
			}
			// The listed tools are then registered and checked as usual; asking again works too.
			g, err := c.Compile(tools[0])
			if err != nil {
				t.Fatal(err)
			}
			if v := g.Check(t.Context(), []byte(`{"path":"a"}`)); !v.Valid {
				t.Errorf("verdict %+v", v)
			}
			if again, err := c.ListTools(); err != nil || len(again) != len(tools) {
				t.Errorf("second ListTools: %d tools, %v", len(again), err)
			}
		})
	}
}

func TestServedToolsNotAnnounced(t *testing.T) {
	c := startToolsFake(t, "silent", 1)
	if c.ServesTools() {
		t.Error("ServesTools() = true without tools in hello")
	}
	if _, ok := c.Validator().(validator.ToolSource); ok {
		t.Error("Validator() is a ToolSource although the child serves no tools: run without --tools would not test " +
			"the corpus")
	}
	if _, err := c.ListTools(); err == nil || !strings.Contains(err.Error(), "does not serve tools") {
		t.Errorf("ListTools error %v", err)
	}
}

func TestServedToolsFailures(t *testing.T) {
	for behaviour, want := range map[string]string{
		"error":  "the module exports no tools",
		"noname": "tools[0]",
		"die":    "died",
	} {
		t.Run(behaviour, func(t *testing.T) {
			c := startToolsFake(t, behaviour, 1)
			_, err := c.ListTools()
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("ListTools error %v, want one saying %q", err, want)
			}
		})
	}
}

func TestParseToolList(t *testing.T) {
	for line, want := range map[string]string{
		`{"op":"tools"}`:                       `no "tools" array`,
		`{"op":"tools","tools":{}}`:            `is not {"op":"tools"`,
		`{"op":"tools","tools":[{"name":""}]}`: "non-empty string name",
		`{"op":"tools","tools":[7]}`:           "tools[0]",
		`{"op":"tools","error":"bad module"}`:  "bad module",
	} {
		if _, err := parseToolList([]byte(line), "x"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", line, err, want)
		}
	}
	tools, err := parseToolList([]byte(`{"op":"tools","tools":[{"name":"a"},{"name":"b","parameters":null}]}`), "x")
	if err != nil || len(tools) != 2 || string(tools[0].Parameters) != "{}" || string(tools[1].Parameters) != "{}" {
		t.Errorf("tools without parameters: %+v, %v (want {} for each)", tools, err)
	}
}
