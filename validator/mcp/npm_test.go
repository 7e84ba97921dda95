package mcp_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/announce"
	"github.com/toolproof/toolproof/internal/needs"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
)

// npmServer returns the command of a server installed in servers/ (npm ci there). It skips
// when node or the packages are missing, and fails instead when TOOLPROOF_REQUIRE_NODE=1.
func npmServer(t *testing.T, bin string) []string {
	t.Helper()
	requireNode(t)
	path, err := filepath.Abs(filepath.Join("servers", "node_modules", ".bin", bin))
	if err != nil {
		t.Fatal(err)
	}
	return []string{path}
}

// TestServerMemory runs @modelcontextprotocol/server-memory (its file in a temp dir) end to end.
// Its zod gate holds on the schema it lists, which leaves objects open. add_observations refuses
// a valid call for an entity that does not exist ("Entity with name X not found"): a valid call
// owes a success, so that is a false_reject, until --ran-pattern 'not found' says the tool ran.
// Read as closed objects (--close), the keys zod strips are executed: hallucinated_key missed.
func TestServerMemory(t *testing.T) {
	cmd := npmServer(t, "mcp-server-memory")
	notFound := regexp.MustCompile(`not found`)
	for _, tc := range []struct {
		closed bool
		ran    *regexp.Regexp
	}{{false, nil}, {false, notFound}, {true, notFound}} {
		t.Run(fmt.Sprintf("close=%v,ran=%v", tc.closed, tc.ran), func(t *testing.T) {
			t.Parallel()
			serverMemory(t, cmd, tc.closed, tc.ran)
		})
	}
}

// serverMemory runs server-memory's create_entities, add_observations and open_nodes, their
// objects read as closed or not, with ran as --ran-pattern.
func serverMemory(t *testing.T, cmd []string, closed bool, ran *regexp.Regexp) {
	opts := mcp.Options{Command: cmd,
		Env:    append(os.Environ(), "MEMORY_FILE_PATH="+filepath.Join(t.TempDir(), "memory.jsonl")),
		Stderr: &syncBuffer{}, Only: []string{"create_entities", "add_observations", "open_nodes"},
		Wording: validator.Wording{Ran: ran}}
	c := start(t, opts)
	tools, _ := c.Tools()
	if len(tools) != 3 {
		t.Fatalf("--tool kept %d tools", len(tools))
	}
	rep, err := harness.Run(tools, c, harness.Options{Close: closed, Jobs: 2, ShrinkSteps: shrinkSteps})
	if err != nil {
		t.Fatal(err)
	}
	missed, refused := map[string]bool{}, false
	for _, f := range rep.Findings {
		switch {
		case f.Kind == report.Missed:
			missed[string(f.Class)] = true
		case f.Kind == report.FalseReject && f.Tool == "add_observations" && strings.Contains(f.Detail, "not found"):
			refused = true
			continue
		}
		if !closed && f.Blocking {
			t.Errorf("open schemas, --ran-pattern %v: finding %v %s", ran, f, f.Detail)
		}
	}
	if refused != (ran == nil) {
		t.Errorf("--ran-pattern %v: add_observations' 'not found' reported as a false_reject: %v; findings %v",
			ran, refused, rep.Findings)
	}
	if closed && !missed["hallucinated_key"] {
		t.Errorf("closed objects: no hallucinated_key missed; findings %v", rep.Findings)
	}
	if c.Forms()["rejected: isError, TypeScript SDK wording"] == 0 || c.Forms()[mcp.FormRPCRequestSchema] == 0 {
		t.Errorf("forms %v: want the TypeScript SDK's isError wording and its request-schema -32603", c.Forms())
	}
}

// alarmServer starts servers/alarm/VERSION.mjs (node) over HTTP on loopback with a bearer
// token and returns its URL.
func alarmServer(t *testing.T, version, mode, token string) string {
	t.Helper()
	requireNode(t)
	cmd := exec.Command("node", filepath.Join("servers", "alarm", version+".mjs"), "--http", "0", "--mode",
		mode, "--token", token)
	cmd.Stderr = os.Stderr
	return announce.URL(t, cmd)
}

// requireNode skips (fails with TOOLPROOF_REQUIRE_NODE=1) when node or servers' packages are
// missing.
func requireNode(t *testing.T) {
	t.Helper()
	needs.Met(t, "TOOLPROOF_REQUIRE_NODE", "the MCP servers", needs.Node("servers", "validator/mcp/servers"))
}

// TestTypeScriptSDKOverHTTP: the TypeScript SDK 1.x over Streamable HTTP (sessions, SSE answers,
// a bearer token) and 2.x in the stateless 2026-07-28 revision, each with a correct gate (no
// finding, every rejection located) and the planted lenient one (the string "20" coerced,
// unknown keys stripped: caught as stringified_type and hallucinated_key); a wrong token is an
// AuthError naming 401.
func TestTypeScriptSDKOverHTTP(t *testing.T) {
	const token = "tpk-ts-91c4f0d2aa"
	for _, tc := range []struct{ version, protocol string }{{"v1", "2025-11-25"}, {"v2", "2026-07-28"}} {
		for _, mode := range []string{"correct", "lenient"} {
			t.Run(tc.version+"-"+mode, func(t *testing.T) {
				t.Parallel()
				url := alarmServer(t, tc.version, mode, token)
				if _, err := mcp.Start(mcp.Options{URL: url, Header: http.Header{"Authorization": {"Bearer nope"}},
					Stderr: io.Discard}); !mcp.IsAuthError(err) || !strings.Contains(err.Error(), "401") {
					t.Fatalf("a wrong token: %v", err)
				}
				c := start(t, mcp.Options{URL: url, Header: http.Header{"Authorization": {"Bearer " + token}},
					Stderr: &syncBuffer{}})
				if c.Protocol() != tc.protocol {
					t.Fatalf("protocol %q, want %q", c.Protocol(), tc.protocol)
				}
				tools, _ := c.Tools()
				rep, err := harness.Run(tools, c,
					harness.Options{Jobs: 2, Checks: 10, Seed: 1, ShrinkSteps: shrinkSteps})
				if err != nil {
					t.Fatal(err)
				}
				found := findings(rep)
				if mode == "correct" {
					for _, f := range rep.Findings {
						if !sdkProtoBug(f) {
							t.Errorf("finding on a correct server: %v %s", f, f.Detail)
						}
					}
					return
				}
				for _, want := range []string{"stringified_type missed", "hallucinated_key missed"} {
					if !found[want] {
						t.Errorf("no %s; findings %v", want, rep.Findings)
					}
				}
			})
		}
	}
}

// TestTypeScriptSDK2Stdio: a stdio server of the TypeScript SDK 2.x that refuses initialize
// (legacy: 'reject') is spoken to in 2026-07-28 and has no finding.
func TestTypeScriptSDK2Stdio(t *testing.T) {
	requireNode(t)
	c := start(t, mcp.Options{Command: []string{"node", filepath.Join("servers", "alarm", "v2.mjs")},
		Stderr: &syncBuffer{}})
	if c.Protocol() != "2026-07-28" {
		t.Fatalf("protocol %q", c.Protocol())
	}
	tools, _ := c.Tools()
	rep, err := harness.Run(tools, c, harness.Options{Jobs: 2, Checks: 10, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if !sdkProtoBug(f) {
			t.Errorf("finding: %v %s", f, f.Detail)
		}
	}
}

// sdkProtoBug is the TypeScript SDK's own finding (1.x and 2.x alike): its CallToolRequest
// schema reads arguments with z.record(z.string(), z.unknown()), whose parser drops an own
// "__proto__" key (JSON.parse makes one), so a tool's strict schema never sees the hallucinated
// key and the tool runs without it.
func sdkProtoBug(f report.Finding) bool {
	return f.Kind == report.Missed && f.Class == "hallucinated_key" && strings.Contains(string(f.Args), `"__proto__"`)
}
