package stdio

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// TestCheckAlone: a call checked alone runs on a process of its own, so its crash is its own;
// the pool's process is untouched, and the process that runs calls alone is restarted after it.
func TestCheckAlone(t *testing.T) {
	c, _ := startFake(t, "dieon", 0, Options{})
	g, err := c.Compile(replayTool)
	if err != nil {
		t.Fatal(err)
	}
	iso := g.(validator.Isolator)
	start := time.Now()
	for i := 0; i < 5; i++ {
		if v := iso.CheckAlone(context.Background(), []byte(`{"die":1}`)); v.Fault != validator.Crash {
			t.Fatalf("a call that kills the process, alone: %+v, want a crash", v)
		}
		if v := iso.CheckAlone(context.Background(), []byte(`{"path":"a"}`)); v.Fault != "" || !v.Valid {
			t.Fatalf("a good call alone after a crash: %+v, want valid", v)
		}
	}
	t.Logf("5 crashes alone in %v", time.Since(start))
	if st := c.Stats(); st.Restarts != 0 || st.Crashes != 0 {
		t.Errorf("the pool's own process was touched: %+v", st)
	}
	// In a batch, every call in flight at the death gets a Crash; alone, only the killer does.
	args := [][]byte{}
	for i := 0; i < 20; i++ {
		args = append(args, []byte(fmt.Sprintf(`{"path":"p%d"}`, i)))
	}
	args[7] = []byte(`{"die":1}`)
	vs := g.(validator.BatchGate).CheckBatch(context.Background(), args)
	crashed := 0
	for _, v := range vs {
		if v.Fault == validator.Crash {
			crashed++
		}
	}
	if vs[7].Fault != validator.Crash {
		t.Errorf("the killer got %+v", vs[7])
	}
	t.Logf("%d of 20 calls in flight got a crash", crashed)
}

// replayTool is the tool the replay benchmarks check calls of.
var replayTool = tool.Tool{
	Name:        "read",
	Description: "Read a file.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","minLength":1},` +
		`"limit":{"type":"integer","minimum":1,"maximum":2000}},"required":["path"],"additionalProperties":false}`),
}
