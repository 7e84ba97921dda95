// Package needs ends a test whose programs are missing from the machine: it skips the test, or
// fails it where an environment variable such as TOOLPROOF_REQUIRE_NODE=1 asks for them.
package needs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Met ends t when why is not empty: it fails t when the environment variable env is "1" and skips
// it otherwise, saying that what cannot run and why. It does nothing when why is empty.
func Met(t testing.TB, env, what, why string) {
	t.Helper()
	if why == "" {
		return
	}
	if os.Getenv(env) == "1" {
		t.Fatalf("%s=1, but %s cannot run: %s", env, what, why)
		return
	}
	t.Skipf("skipping %s: %s (%s=1 makes this a failure)", what, why, env)
}

// Python returns why python3 with the jsonschema package cannot run here, or "" when it can.
func Python() string {
	if _, err := exec.LookPath("python3"); err != nil {
		return "python3 is not on PATH"
	}
	if err := exec.Command("python3", "-c", "import jsonschema").Run(); err != nil {
		return "python3 has no jsonschema package"
	}
	return ""
}

// Node returns why node with the packages of the npm folder dir (rel, as the message names it)
// cannot run here, or "" when it can.
func Node(dir, rel string) string {
	if _, err := exec.LookPath("node"); err != nil {
		return "node is not on PATH"
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		return fmt.Sprintf("%s/node_modules is missing (run `npm ci` in %s)", rel, rel)
	}
	return ""
}
