package tool_test

import (
	"fmt"

	"github.com/toolproof/toolproof/validator/tool"
)

// Parse (and Load, for files and directories) reads tool definitions in the envelopes people
// have: here an OpenAI function, an Anthropic tool and an MCP tool in one array. What cannot be
// used is skipped with its reason and where it was; the rest is read.
func ExampleParse() {
	data := []byte(`[
		{"type": "function", "function": {"name": "read", "parameters": {"type": "object", ` +
		`"properties": {"path": {"type": "string"}}}}},
		{"name": "grep", "input_schema": {"type": "object", "properties": {"pattern": {"type": "string"}}}},
		{"name": "fetch", "inputSchema": {"type": "object", "properties": {"url": {"type": "string", ` +
		`"format": "uri"}}}},
		{"type": "object", "properties": {"q": {"type": "string"}}}
	]`)
	set, err := tool.Parse(data, "tools.json")
	if err != nil {
		panic(err)
	}
	for _, t := range set.Tools {
		fmt.Println("tool:", t.Name, "from", t.Source)
	}
	for _, s := range set.Skipped {
		fmt.Println("skipped:", s)
	}
	// Output:
	// tool: read from tools.json#0
	// tool: grep from tools.json#1
	// tool: fetch from tools.json#2
	// skipped: (unnamed) (tools.json#3): no "name": this is a JSON Schema, not a tool definition; give it to toolproof gen --schema FILE, or wrap it as {"name": "...", "parameters": SCHEMA}
}

// A file that is not JSON is an error naming the file, the line and the column.
func ExampleParse_error() {
	_, err := tool.Parse([]byte("{\"name\": \"read\",\n \"parameters\": {]}"), "tools.json")
	fmt.Println(err)
	// Output:
	// tools.json:2:17: not JSON: invalid character ']' looking for beginning of object key string
}

// Close treats every object that does not say otherwise as closed, as OpenAI's strict mode does.
func ExampleClose() {
	t := tool.Tool{Name: "read", Parameters: []byte(`{"type":"object","properties":{"path":{"type":"string"}}}`)}
	fmt.Println(string(tool.Close(t).Parameters))
	// Output:
	// {"additionalProperties":false,"properties":{"path":{"type":"string"}},"type":"object"}
}

// Pick takes the tools a test needs from a set, in the order given, or says which is missing.
func ExampleSet_Pick() {
	set, _ := tool.Parse([]byte(`[{"name": "read", "parameters": {"type": "object"}}, {"name": "grep", "parameters": `+
		`{"type": "object"}}]`), "tools.json")
	picked, _ := set.Pick("grep", "read")
	for _, t := range picked {
		fmt.Println(t.Name)
	}
	_, err := set.Pick("read", "write")
	fmt.Println(err)
	// Output:
	// grep
	// read
	// no tool "write" in the set
}
