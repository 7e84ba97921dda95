package needs_test

import (
	"strings"
	"testing"

	"github.com/toolproof/toolproof/internal/needs"
)

// recorder is a testing.TB that records how Met ended it.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = format }
func (r *recorder) Skipf(format string, args ...any)  { r.skip = format }

func TestMet(t *testing.T) {
	t.Setenv("TOOLPROOF_REQUIRE_TEST", "")
	r := &recorder{TB: t}
	needs.Met(r, "TOOLPROOF_REQUIRE_TEST", "x", "")
	if r.fatal != "" || r.skip != "" {
		t.Fatalf("Met with no reason ended the test: %+v", r)
	}
	needs.Met(r, "TOOLPROOF_REQUIRE_TEST", "x", "gone")
	if r.skip == "" || r.fatal != "" {
		t.Fatalf("Met without the variable did not skip: %+v", r)
	}
	t.Setenv("TOOLPROOF_REQUIRE_TEST", "1")
	r = &recorder{TB: t}
	needs.Met(r, "TOOLPROOF_REQUIRE_TEST", "x", "gone")
	if r.fatal == "" || r.skip != "" {
		t.Fatalf("Met under TOOLPROOF_REQUIRE_TEST=1 did not fail: %+v", r)
	}
}

func TestNodeNamesTheFolder(t *testing.T) {
	why := needs.Node(t.TempDir(), "some/folder")
	if !strings.Contains(why, "node") {
		t.Fatalf("Node on an empty folder = %q, want a reason", why)
	}
}
