package stdio

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// TestLaterProcessRefusesATool: the first process accepts tool maybe_read, the processes
// started after it refuse it and then pass every call of it. A call given to such a process is
// a protocol error, never a pass: after a death (the restarted process) and on the processes
// that run calls alone.
func TestLaterProcessRefusesATool(t *testing.T) {
	c, _ := startFake(t, "refuselater", 0,
		Options{Env: []string{fakeState + "=" + filepath.Join(t.TempDir(), "first")}})
	g := compile(t, c, tool.Tool{Name: "maybe_read",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)})
	ctx := context.Background()
	if v := g.Check(ctx, []byte(`{"path":7}`)); v.Fault != "" {
		t.Fatalf("on the first process: %+v, want a verdict", v)
	}
	if v := g.Check(ctx, []byte(`{"die":1}`)); v.Fault != validator.Crash {
		t.Fatalf("the marked call: %+v, want a crash", v)
	}
	for _, how := range []struct {
		name  string
		check func() validator.Verdict
	}{
		{"after the restart", func() validator.Verdict { return g.Check(ctx, []byte(`{"path":7}`)) }},
		{"alone", func() validator.Verdict { return g.(validator.Isolator).CheckAlone(ctx, []byte(`{"path":7}`)) }},
	} {
		v := how.check()
		if v.Fault != validator.ProtocolError || !strings.Contains(v.Detail, `refused tool "maybe_read"`) ||
			!strings.Contains(v.Detail, "schema does not compile") {
			t.Errorf("%s: %+v, want a protocol error naming the refusal", how.name, v)
		}
	}
}

// TestSparesStartSideBySide: deaths that come faster than a start (every start but the first
// takes 300 ms) make the client keep more than one spare starting at once, never more than
// SpareLimit; Close ends them all.
func TestSparesStartSideBySide(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	c, _ := startFake(t, "slowdieon", 300, Options{Env: []string{fakeState + "=" + state}})
	g := compile(t, c, readTool)
	most := 0
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			c.mu.Lock()
			p := c.procs[0]
			most = max(most, len(p.spares)+p.warming)
			c.mu.Unlock()
		}
	}()
	for i := 0; i < 4; i++ {
		if v := g.Check(context.Background(), []byte(`{"die":1}`)); v.Fault != validator.Crash {
			t.Fatalf("death %d: %+v, want a crash", i+1, v)
		}
	}
	if v := g.Check(context.Background(), []byte(`{"path":"a"}`)); !v.Valid {
		t.Fatalf("the call after the deaths: %+v", v)
	}
	close(stop)
	<-watched
	if most < 2 || most > SpareLimit() {
		t.Errorf("at most %d spares ready or starting at once; want 2 to %d", most, SpareLimit())
	}
	if err := c.Close(); err != nil {
		t.Logf("Close: %v", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ch := range append([]*child{c.procs[0].cur}, c.procs[0].spares...) {
		if ch == nil {
			continue
		}
		select {
		case <-ch.exited:
		default:
			t.Errorf("a process still running after Close")
		}
	}
	if w := c.procs[0].warming; w != 0 {
		t.Errorf("%d spares still starting after Close", w)
	}
}
