package mcp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/report"
	"github.com/toolproof/toolproof/validator/mcp"
)

// npmServer returns the command of a server installed in servers/ (npm ci there). It skips
// when node or the packages are missing, and fails instead when TOOLPROOF_REQUIRE_NODE=1.
func npmServer(t *testing.T, bin string) []string {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("TOOLPROOF_REQUIRE_NODE") == "1" {
		skip = t.Fatalf
	}
	if _, err := exec.LookPath("node"); err != nil {
		skip("node is not on PATH")
	}
	path, err := filepath.Abs(filepath.Join("servers", "node_modules", ".bin", bin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		skip("%s is not installed: run npm ci in validator/mcp/servers", bin)
	}
	return []string{path}
}

// TestServerMemory runs @modelcontextprotocol/server-memory (its file in a temp dir) end to end.
// Its zod gate holds on the schema it lists, which leaves objects open; read as closed objects
// (--close), the keys zod strips are executed: hallucinated_key missed.
func TestServerMemory(t *testing.T) {
	cmd := npmServer(t, "mcp-server-memory")
	for _, closed := range []bool{false, true} {
		opts := mcp.Options{Command: cmd, Env: append(os.Environ(), "MEMORY_FILE_PATH="+filepath.Join(t.TempDir(), "memory.jsonl")),
			Stderr: &syncBuffer{}, Only: []string{"create_entities", "add_observations", "open_nodes"}}
		c := start(t, opts)
		tools, _ := c.Tools()
		if len(tools) != 3 {
			t.Fatalf("--tool kept %d tools", len(tools))
		}
		rep, err := harness.Run(tools, c, harness.Options{Close: closed, Jobs: 2})
		if err != nil {
			t.Fatal(err)
		}
		missed := map[string]bool{}
		for _, f := range rep.Findings {
			if f.Kind == report.Missed {
				missed[string(f.Class)] = true
			}
			if !closed && f.Blocking {
				t.Errorf("open schemas: finding %v %s", f, f.Detail)
			}
		}
		if closed && !missed["hallucinated_key"] {
			t.Errorf("closed objects: no hallucinated_key missed; findings %v", rep.Findings)
		}
		if c.Forms()["rejected: isError, TypeScript SDK wording"] == 0 || c.Forms()[mcp.FormRPCRequestSchema] == 0 {
			t.Errorf("forms %v: want the TypeScript SDK's isError wording and its request-schema -32603", c.Forms())
		}
	}
}
