package mcp_test

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/mcp/internal/fakeserver"
	"github.com/toolproof/toolproof/validator/tool"
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
	args := [][]byte{[]byte(`{"hour":3}`), []byte(`{"hour":99}`), []byte(`{"hour":1,"label":"sleep"}`),
		[]byte(`{"hour":2,"label":"sleep"}`)}
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

// TestTimeoutAfterIdleSweep: a call of a batch sent after the batch's timer found no call
// waiting (the one before it was being sent again alone, past the timeout of its first
// sending) still times out.
func TestTimeoutAfterIdleSweep(t *testing.T) {
	const timeout = 400 * time.Millisecond
	var crashed atomic.Bool
	dial := pipeServer("idle", func(w io.Writer, msg string) {
		switch {
		case strings.Contains(msg, `"hang"`):
		case strings.Contains(msg, `"crash"`) && crashed.CompareAndSwap(false, true):
			time.Sleep(timeout * 3 / 4)
			w.(io.Closer).Close()
		default:
			time.Sleep(timeout / 2)
			fmt.Fprintln(w, emptyResult(msg))
		}
	})
	c := start(t, mcp.Options{Dial: dial, Stderr: io.Discard, Timeout: timeout, Window: 1,
		ProbeTimeout: 100 * time.Millisecond})
	g, err := c.Compile(tool.Tool{Name: "t", Parameters: []byte(`{"type":"object"}`)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*timeout)
	defer cancel()
	vs := g.(validator.BatchGate).CheckBatch(ctx, [][]byte{[]byte(`{"a":"crash"}`), []byte(`{"a":"hang"}`)})
	if vs[0].Fault != "" || !vs[0].Valid {
		t.Errorf("the call sent again alone: %+v, want accepted", vs[0])
	}
	if vs[1].Fault != validator.Timeout || !strings.Contains(vs[1].Detail, "no answer") {
		t.Errorf("the call never answered: %+v, want timed out", vs[1])
	}
}
