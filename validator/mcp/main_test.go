package mcp_test

import (
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/toolproof/toolproof/internal/syncbuf"
	"github.com/toolproof/toolproof/internal/testflags"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// The test binary is also the fake server: with TOOLPROOF_FAKE_MCP=MODE it serves MCP on
// stdin and stdout instead of running the tests. rapid runs a fifth of -rapid.checks under
// -short, hence 50 (10 under -short).
func TestMain(m *testing.M) {
	if mode := os.Getenv("TOOLPROOF_FAKE_MCP"); mode != "" {
		os.Exit(serveFake(mode))
	}
	flag.Parse()
	testflags.Default(map[string]string{"rapid.checks": "50", "rapid.seed": "1", "rapid.shrinktime": "1s",
		"rapid.nofailfile": "true"})
	os.Exit(m.Run())
}

// serveFake is the test binary as the fake server in mode, and its exit code. With
// TOOLPROOF_FAKE_MCP_ONCE=FILE it serves only the first time (it leaves FILE behind): a server
// that cannot be started again.
func serveFake(mode string) int {
	if once := os.Getenv("TOOLPROOF_FAKE_MCP_ONCE"); once != "" {
		if _, err := os.Stat(once); err == nil {
			fmt.Fprintln(os.Stderr, "fake: refusing to start again")
			return 1
		}
		os.WriteFile(once, nil, 0o600)
	}
	return fakeserver.Run(mode, os.Stdin, os.Stdout, os.Stderr)
}

// syncBuffer collects the server's stderr and the client's notes.
type syncBuffer = syncbuf.Buffer

// fakeOptions runs this test binary as the fake server in mode.
func fakeOptions(t *testing.T, mode string) mcp.Options {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return mcp.Options{Command: []string{exe}, Env: append(os.Environ(), "TOOLPROOF_FAKE_MCP="+mode),
		Stderr: &syncBuffer{}, StartTimeout: 10 * time.Second, Timeout: 5 * time.Second}
}

// start starts the client with opts and closes it when t ends.
func start(t *testing.T, opts mcp.Options) *mcp.Client {
	t.Helper()
	c, err := mcp.Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
