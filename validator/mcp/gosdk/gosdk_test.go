package gosdk_test

import (
	"flag"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/testflags"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/gosdk"
	"github.com/toolproof/toolproof/validator/mcp/gosdk/examples"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// rapid runs a fifth of -rapid.checks under -short.
	testflags.Default(map[string]string{"rapid.checks": "50", "rapid.seed": "1", "rapid.shrinktime": "1s",
		"rapid.nofailfile": "true"})
	os.Exit(m.Run())
}

// run checks c's own tools and returns the report and the set of "class kind" findings.
func run(t *testing.T, c *mcp.Client) (*report.Report, map[string]bool) {
	t.Helper()
	t.Cleanup(func() { c.Close() })
	tools, err := c.Tools()
	if err != nil {
		t.Fatal(err)
	}
	rep, err := harness.Run(tools, c, harness.Options{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, f := range rep.Findings {
		found[string(f.Class)+" "+string(f.Kind)] = true
		found[string(f.Kind)] = true
	}
	return rep, found
}

func opts() mcp.Options { return mcp.Options{Stderr: io.Discard} }

// TestGoSDKInMemory: the Go SDK validates against the schema it infers before the handler runs:
// nothing distorted gets through, but google/jsonschema-go's messages quote argument values.
// (Valid integers beyond int64 are refused when unmarshaled into the struct: a false_reject
// this test does not insist on, as it needs a draw that large.)
func TestGoSDKInMemory(t *testing.T) {
	c, err := gosdk.Validator(examples.GoSDK(), opts())
	if err != nil {
		t.Fatal(err)
	}
	rep, found := run(t, c)
	for _, bad := range []string{"missed", "silent_change"} {
		if found[bad] {
			t.Errorf("Go SDK server: %s findings: %v", bad, rep.Findings)
		}
	}
	if !found["leak"] {
		t.Errorf("Go SDK server: no leak found (jsonschema-go quotes values in its messages); findings: %v",
			rep.Findings)
	}
	if c.Forms()["rejected: isError, Go SDK wording"] == 0 {
		t.Errorf("Go SDK server: rejections not read as the Go SDK's wording: %v", c.Forms())
	}
}

// TestMCPGoInMemory: mcp-go's typed handlers bind with encoding/json, which drops unknown keys,
// fills in missing ones and takes null; with WithInputSchemaValidation none of that gets through.
func TestMCPGoInMemory(t *testing.T) {
	c, err := gosdk.MCPGo(examples.MCPGo(false), opts())
	if err != nil {
		t.Fatal(err)
	}
	rep, found := run(t, c)
	for _, want := range []string{"hallucinated_key missed", "missing_required missed", "null_value missed"} {
		if !found[want] {
			t.Errorf("mcp-go without validation: no %s finding; findings: %v", want, rep.Findings)
		}
	}
	c, err = gosdk.MCPGo(examples.MCPGo(true), opts())
	if err != nil {
		t.Fatal(err)
	}
	rep, found = run(t, c)
	if found["missed"] {
		t.Errorf("mcp-go with input schema validation: missed findings: %v", rep.Findings)
	}
	if c.Forms()["rejected: isError, mcp-go wording"] == 0 {
		t.Errorf("mcp-go: rejections not read as mcp-go's wording: %v", c.Forms())
	}
}

// TestGoSDKServerProcess runs the example command as a subprocess, as --validator mcp:... does.
func TestGoSDKServerProcess(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "gosdk-server")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/gosdk-server").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	o := opts()
	o.Command = []string{bin}
	c, err := mcp.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Name(), "mcp:toolproof-example-gosdk") {
		t.Errorf("name %q", c.Name())
	}
	rep, found := run(t, c)
	if found["missed"] || !found["leak"] {
		t.Errorf("Go SDK server process: findings %v", rep.Findings)
	}
}

// TestGoSDKOverHTTP: the Go SDK's Streamable HTTP handler, with sessions and event streams
// and stateless with JSON answers, holds as it does in memory (nothing missed, the leaks of
// jsonschema-go's messages), and the client says which revision it spoke.
func TestGoSDKOverHTTP(t *testing.T) {
	for _, hopts := range []*sdk.StreamableHTTPOptions{nil, {Stateless: true, JSONResponse: true}} {
		c, err := gosdk.HTTPValidator(examples.GoSDK(), opts(), hopts)
		if err != nil {
			t.Fatal(err)
		}
		if c.Transport() != "Streamable HTTP" || c.Protocol() == "" {
			t.Fatalf("transport %q, protocol %q", c.Transport(), c.Protocol())
		}
		rep, found := run(t, c)
		if found["missed"] || found["silent_change"] || !found["leak"] {
			t.Errorf("Go SDK over HTTP (%+v, protocol %s): findings %v", hopts, c.Protocol(), rep.Findings)
		}
		if c.Forms()["rejected: isError, Go SDK wording"] == 0 {
			t.Errorf("Go SDK over HTTP: forms %v", c.Forms())
		}
		t.Logf("%+v: protocol %s; %s", hopts, c.Protocol(), strings.Join(c.Notes(), "; "))
	}
}

// TestHTTPHandlerAuth: a handler behind a bearer-token check: the right header passes, a
// missing one is an AuthError naming 401.
func TestHTTPHandlerAuth(t *testing.T) {
	inner := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return examples.GoSDK() }, nil)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer gosdk-secret-token" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		inner.ServeHTTP(w, r)
	})
	if _, err := mcp.StartHandler(h, opts()); !mcp.IsAuthError(err) || !strings.Contains(err.Error(), "401") {
		t.Fatalf("no token: %v", err)
	}
	o := opts()
	o.Header = http.Header{"Authorization": {"Bearer gosdk-secret-token"}}
	c, err := mcp.StartHandler(h, o)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}
