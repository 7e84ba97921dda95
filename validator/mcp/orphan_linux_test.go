package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// TestNoOrphanWhenTheServerDies: a server over stdio that started a child in its group and
// then dies mid-run takes the child with it at once (not only when the client is closed): the
// call that killed it gets its crash verdict, and the processes are counted.
func TestNoOrphanWhenTheServerDies(t *testing.T) {
	token := fmt.Sprintf("3023.%d", os.Getpid())
	count := func() []int {
		out, _ := exec.Command("pgrep", "-f", "sleep "+token).Output()
		var pids []int
		for _, f := range bytes.Fields(out) {
			if pid, err := strconv.Atoi(string(f)); err == nil {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	t.Cleanup(func() {
		for _, pid := range count() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	opts := fakeOptions(t, "crash")
	opts.Command = append([]string{"sh", "-c", `sleep ` + token + ` & exec "$0"`}, opts.Command...)
	opts.Timeout = 20 * time.Second
	c := start(t, opts)
	if n := len(count()); n != 1 {
		t.Fatalf("%d children of the server running, want 1", n)
	}
	g, err := c.Compile(fakeserver.Tools[0])
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	v := g.Check(context.Background(), []byte(`{"hour":1,"label":"boom"}`))
	if v.Fault != validator.Crash {
		t.Fatalf("the call that kills the server: %+v", v)
	}
	if d := time.Since(begin); d >= opts.Timeout {
		t.Fatalf("the crash was seen after %v, the call's whole timeout", d)
	}
	// The dead server's child is killed; a restarted server may have started its own.
	deadline := time.Now().Add(10 * time.Second)
	for len(count()) > 1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(count()); n > 1 {
		t.Fatalf("%d children running after the server died, want at most the restarted server's", n)
	}
	c.Close()
	if pids := count(); len(pids) > 0 {
		t.Fatalf("children %v outlived the client", pids)
	}
}
