package mcp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
)

// TestCancelMidBatch: a batch over stdio whose context ends while calls wait for answers that
// never come returns them cancelled, long before --timeout; the calls answered first keep their
// verdicts, and the client goes on with the next batch.
func TestCancelMidBatch(t *testing.T) {
	opts := fakeOptions(t, "crash")
	opts.Timeout = 2 * time.Minute
	c := start(t, opts)
	g, err := c.Compile(fakeserver.Tools[0])
	if err != nil {
		t.Fatal(err)
	}
	bg := g.(validator.BatchGate)
	args := [][]byte{[]byte(`{"hour":3}`), []byte(`{"hour":99}`), []byte(`{"hour":1,"label":"sleep"}`), []byte(`{"hour":2,"label":"sleep"}`)}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	vs := bg.CheckBatch(ctx, args)
	for i, v := range vs {
		cancelled := v.Fault == validator.Timeout && strings.Contains(v.Detail, "cancelled")
		switch {
		case i >= 2 && !cancelled:
			t.Errorf("call %d %s, never answered: %+v, want cancelled", i, args[i], v)
		case i == 0 && !cancelled && (v.Fault != "" || !v.Valid):
			t.Errorf("call 0 %s: %+v, want accepted (or cancelled)", args[i], v)
		case i == 1 && !cancelled && (v.Fault != "" || v.Valid):
			t.Errorf("call 1 %s: %+v, want rejected (or cancelled)", args[i], v)
		}
	}
	vs = bg.CheckBatch(context.Background(), args[:2])
	if vs[0].Fault != "" || !vs[0].Valid || vs[1].Fault != "" || vs[1].Valid {
		t.Fatalf("the batch after the cancelled one: %+v", vs)
	}
}
