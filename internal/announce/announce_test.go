package announce_test

import (
	"os/exec"
	"testing"

	"github.com/toolproof/toolproof/internal/announce"
)

func TestURLReadsTheFirstLine(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh on PATH: %v", err)
	}
	got := announce.URL(t, exec.Command(sh, "-c", "echo '  http://127.0.0.1:1/  '; echo later; exec sleep 60"))
	if got != "http://127.0.0.1:1/" {
		t.Fatalf("URL = %q, want http://127.0.0.1:1/", got)
	}
}
