package registry_test

import (
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/stdio"
)

// TestOpenMCP opens mcp:COMMAND on the fake MCP server (built here) with the settings the
// command line passes: a tool filter and a pattern.
func TestOpenMCP(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fake-mcp")
	build := exec.Command("go", "build", "-o", bin, "./validator/mcp/internal/fakeserver/cmd/toolproof-fake-mcp")
	build.Dir = root(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	o := &registry.Opener{Options: stdio.Options{Stderr: io.Discard},
		MCP: mcp.Options{Only: []string{"set_alarm"}, Wording: validator.Wording{Ran: regexp.MustCompile(`upstream`)}}}
	v, err := o.Open("mcp:'" + bin + "' ran-error")
	if err != nil {
		t.Fatal(err)
	}
	defer registry.Close(v)
	if v.Name() != "mcp:fake-ran-error 0.1" {
		t.Fatalf("name %q", v.Name())
	}
	tools, err := v.(validator.ToolSource).Tools()
	if err != nil || len(tools) != 1 || tools[0].Name != "set_alarm" {
		t.Fatalf("tools %v, %v: want only set_alarm", tools, err)
	}
	rep, err := harness.Run(tools, v, harness.Options{OnlyReject: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := rep.Classes["valid"]; !rep.Passed || st == nil || st.NotApplicable == 0 {
		t.Fatalf("--only-reject run: passed %v, valid %+v", rep.Passed, rep.Classes["valid"])
	}
	if _, err := o.Open("mcp:'unterminated"); err == nil || !strings.Contains(err.Error(), "quote") {
		t.Fatalf("bad command: %v", err)
	}
}
