package impls

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

// TestMain doubles as the zoo binary: with TOOLPROOF_ZOO_CHILD=NAME in the
// environment the test binary serves NAME on stdin/stdout, so crashes that
// kill the process can be observed from a parent test.
func TestMain(m *testing.M) {
	if name := os.Getenv("TOOLPROOF_ZOO_CHILD"); name != "" {
		impl, ok := Lookup(name)
		if !ok {
			fmt.Fprintf(os.Stderr, "no implementation %q\n", name)
			os.Exit(2)
		}
		debug.SetMaxStack(64 << 20) // overflow sooner than the default 1 GB
		if err := server.Serve(impl, os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A cycle of $refs that never reaches a keyword: gojsonschema, jsonschema-go
// and qri recurse until the Go stack overflows, which no recover can catch:
// the process dies (toolproof records a crash and restarts it). The hello and
// tool answers were flushed before validating, so they are not lost.
// kaptinlin detects the cycle and accepts; json-struct makes it `any`.
func TestCyclicRefCrashesSomeLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes that overflow their stack")
	}
	schema := `{"type":"object","$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},` +
		`"properties":{"x":{"$ref":"#/$defs/a"}}}`
	for name, wantCrash := range map[string]bool{
		"gojsonschema": true, "jsonschema-go": true, "qri": true,
		"kaptinlin": false, "json-struct": false,
	} {
		t.Run(name, func(t *testing.T) {
			in := `{"op":"hello","protocol":"toolproof/1"}` + "\n" +
				`{"op":"tool","tool":{"name":"t","parameters":` + schema + `}}` + "\n" +
				`{"op":"validate","id":1,"tool":"t","arguments":"{\"x\":1}"}` + "\n"
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "TOOLPROOF_ZOO_CHILD="+name)
			cmd.Stdin = strings.NewReader(in)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exitErr *exec.ExitError
			crashed := errors.As(err, &exitErr)
			if err != nil && !crashed {
				t.Fatalf("run: %v", err)
			}
			lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
			if len(lines) < 2 || !strings.Contains(lines[0], `"op":"hello"`) ||
				!strings.Contains(lines[1], `"ok":true`) {
				t.Errorf("hello and tool answers missing: %q", stdout.String())
			}
			if crashed != wantCrash {
				t.Fatalf("crashed=%v, want %v; stdout %q; stderr tail %q", crashed, wantCrash,
					stdout.String(), head(stderr.String()))
			}
			if crashed {
				if !strings.Contains(stderr.String(), "stack overflow") &&
					!strings.Contains(stderr.String(), "stack exceeds") {
					t.Errorf("crash is not a stack overflow: %q", head(stderr.String()))
				}
				return
			}
			if len(lines) != 3 {
				t.Fatalf("want 3 answers: %q", stdout.String())
			}
			var r map[string]any
			if err := json.Unmarshal([]byte(lines[2]), &r); err != nil || r["valid"] != true {
				t.Errorf("result %q", lines[2])
			}
		})
	}
}

func head(s string) string {
	if len(s) > 300 {
		return s[:300]
	}
	return s
}
