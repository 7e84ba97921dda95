package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifResult is what the tests read of a SARIF result.
type sarifResult struct {
	Message   struct{ Text string }
	Locations []struct {
		PhysicalLocation struct {
			ArtifactLocation struct{ URI string }
			Region           struct{ StartLine, StartColumn int }
		}
	}
	Properties map[string]any
}

// sarifResults runs toolproof with args and --format sarif, checks the log against the SARIF
// 2.1.0 schema, and returns the results.
func sarifResults(t *testing.T, args ...string) []sarifResult {
	t.Helper()
	r := must(t, 1, append(append([]string{"run"}, args...), "--format", "sarif")...)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifSchema(t).Validate(doc); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v\n%s", err, clip(r.stdout))
	}
	var log struct {
		Runs []struct{ Results []sarifResult }
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || len(log.Runs) != 1 ||
		len(log.Runs[0].Results) == 0 {
		t.Fatalf("no SARIF results (%v):\n%s", err, clip(r.stdout))
	}
	return log.Runs[0].Results
}

// sarifSchema compiles the OASIS SARIF 2.1.0 schema the report package keeps.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	s, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "..", "harness", "report", "testdata", "sarif",
		"sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// positionOf is the line and column of the first sub in text after the first after.
func positionOf(t *testing.T, text, after, sub string) (line, col int) {
	t.Helper()
	i := strings.Index(text, after)
	j := strings.Index(text[i:], sub)
	if i < 0 || j < 0 {
		t.Fatalf("no %q after %q in the test's own file", sub, after)
	}
	off := i + j
	return 1 + strings.Count(text[:off], "\n"), off - strings.LastIndex(text[:off], "\n")
}

// The deploy tool: a nested property whose type a coercing gate does not hold.
const nestedDeploy = `[
  {"type": "function", "function": {
    "name": "deploy",
    "parameters": {
      "type": "object",
      "properties": {
        "service": {"type": "string", "minLength": 1},
        "options": {
          "type": "object",
          "properties": {
            "replicas": {"type": "integer", "minimum": 1}
          }
        }
      },
      "required": ["service"]
    }
  }}
]
`

// A SARIF result is at the place of the tool's schema its finding is about: a coercing gate's
// stringified nested number at the "type" of that property's schema, in a JSON file (the tool in
// an OpenAI wrapper) and on its line of a JSON Lines file (in an Anthropic one); the text report
// says the same place. A finding about raw text (JSON in a markdown fence) has no place in the
// schema and stays at the tool's name.
func TestSARIFLocatesSchemaPlaces(t *testing.T) {
	dir := t.TempDir()
	jsonl := `{"name": "ping", "parameters": {"type": "object"}}` + "\n" +
		`{"name": "deploy", "input_schema": {"type": "object", "required": ["service"], "properties": {"service": ` +
		`{"type": "string"}, "options": {"properties": {"replicas": {"minimum": 1, "type": "integer"}}}}}}` + "\n"
	for _, c := range []struct{ file, text string }{{"tools.json", nestedDeploy}, {"tools.jsonl", jsonl}} {
		path := writeFile(t, dir, c.file, c.text)
		line, col := positionOf(t, c.text, `"replicas"`, `"type"`)
		args := []string{"--validator", execSpec(t), "--tools", path, "--mutators", "stringified_type",
			"--checks", "30", "--seed", "1"}
		results := sarifResults(t, args...)
		for _, res := range results {
			loc := res.Locations[0].PhysicalLocation
			if res.Properties["path"] != "/options/replicas" {
				t.Errorf("%s: a finding at %v", c.file, res.Properties["path"])
			}
			if loc.ArtifactLocation.URI != filepath.ToSlash(relPath(path)) || loc.Region.StartLine != line ||
				loc.Region.StartColumn != col ||
				res.Properties["schema"] != "/properties/options/properties/replicas/type" {
				t.Errorf("%s: %s at %s:%d:%d (schema %v), want %s:%d:%d, the \"type\" of replicas",
					c.file, res.Message.Text,
					loc.ArtifactLocation.URI, loc.Region.StartLine, loc.Region.StartColumn, res.Properties["schema"],
					relPath(path), line, col)
			}
		}
		text := must(t, 1, append([]string{"run"}, args...)...).stdout
		if want := fmt.Sprintf("     at:     %s:%d:%d  schema: /properties/options/properties/replicas/type\n",
			relPath(path), line, col); !strings.Contains(text, want) {
			t.Errorf("%s: the text report lacks %q:\n%s", c.file, want, clip(text))
		}
	}

	path := writeFile(t, dir, "fenced.json", nestedDeploy)
	line, col := positionOf(t, nestedDeploy, `{"type": "function"`, `"name"`)
	for _, res := range sarifResults(t, "--validator", execSpec(t, "-fence"), "--tools", path, "--mutators",
		"malformed_json", "--checks", "20", "--seed", "1") {
		loc := res.Locations[0].PhysicalLocation
		if loc.Region.StartLine != line || loc.Region.StartColumn != col || res.Properties["schema"] != nil {
			t.Errorf("%s at %d:%d (schema %v), want the tool's name at %d:%d", res.Message.Text, loc.Region.StartLine,
				loc.Region.StartColumn,
				res.Properties["schema"], line, col)
		}
	}
}

// A tool file read from a pipe (--tools <(...), /dev/stdin) can be read only once: its findings
// are located in the bytes the run read, not in a second read after the run, which finds the
// pipe empty.
func TestSARIFLocatesToolsFromAPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "tools.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		// Open for writing blocks until toolproof opens the pipe to read it, once.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.WriteString(nestedDeploy)
			f.Close()
		}
	}()
	line, col := positionOf(t, nestedDeploy, `"replicas"`, `"type"`)
	for _, res := range sarifResults(t, "--validator", execSpec(t), "--tools", fifo, "--mutators", "stringified_type",
		"--checks", "30", "--seed", "1") {
		loc := res.Locations[0].PhysicalLocation
		if loc.Region.StartLine != line || loc.Region.StartColumn != col {
			t.Errorf("%s at %s:%d:%d, want line %d column %d, the \"type\" of replicas", res.Message.Text,
				loc.ArtifactLocation.URI, loc.Region.StartLine, loc.Region.StartColumn, line, col)
		}
	}
}

// A tool file whose name has characters a URI must escape (a space, a percent sign, a
// non-ASCII letter) gets a SARIF artifact URI that is a valid URI reference, percent-encoded.
func TestSARIFEscapesFileURIs(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "my tools 100% é.json", nestedDeploy)
	for _, res := range sarifResults(t, "--validator", execSpec(t), "--tools", path, "--mutators", "stringified_type",
		"--checks", "30", "--seed", "1") {
		uri := res.Locations[0].PhysicalLocation.ArtifactLocation.URI
		if !strings.HasSuffix(uri, "/my%20tools%20100%25%20%C3%A9.json") {
			t.Errorf("%s: uri %q, want the name percent-encoded", res.Message.Text, uri)
		}
	}
}
