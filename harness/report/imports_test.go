package report

import (
	"os/exec"
	"strings"
	"testing"
)

// The report reads a model and writes formats: nothing it imports, directly or not, judges a
// call, compiles a schema or distorts one. Its one import of the validator tree is validator/tool,
// for the type of a skipped tool (Skipped), which brings no validator along.
func TestImportsNoJudge(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 2 || deps[len(deps)-1] != "github.com/toolproof/toolproof/harness/report" {
		t.Fatalf("go list -deps gave %q, not the report's dependencies", deps)
	}
	// Each forbidden path and everything below it.
	forbidden := []string{
		"github.com/santhosh-tekuri/jsonschema",
		"github.com/toolproof/toolproof/validator", // the contract, the oracle, the transports, validator/tool
		"github.com/toolproof/toolproof/mutators",
		"github.com/toolproof/toolproof/harness/generate",
	}
	for _, d := range deps {
		if d == "github.com/toolproof/toolproof/harness" {
			t.Errorf("report imports %s", d)
		}
		for _, f := range forbidden {
			if d == f || strings.HasPrefix(d, f+"/") {
				t.Errorf("report imports %s", d)
			}
		}
	}
}
