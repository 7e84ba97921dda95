package fakeserver

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// TransportFaults are the ways the HTTP form of the fake server can misbehave at the transport
// while its gate stays correct: answers that are not the call's own, 5xx at random, a new
// session id on every answer, an answer that never ends.
type TransportFaults struct {
	// Lag: each tools/call is answered with the answer to the tools/call before it (the first
	// with its own), its id and all.
	Lag bool
	// FlakyCalls: a tools/call fails with probability 1/FlakyCalls, drawn from a source seeded
	// anew for each server, so that each run fails other calls: answered 500 without a JSON-RPC
	// answer, or its answer broken off half-way (the connection reset); a call of the
	// same arguments is failed at most FlakyTimes times (0: once).
	FlakyCalls, FlakyTimes int
	// Rotate: every answer in a legacy session carries a new Mcp-Session-Id, the old one
	// forgotten.
	Rotate bool
	// Huge: every tools/call is answered with a JSON body that goes on for 10 GiB.
	Huge bool
	// OneSession: an initialize after the first is answered 500 (no new session can be had).
	OneSession bool
}

// faults is the state of a server's TransportFaults.
type faults struct {
	opts   TransportFaults
	mu     sync.Mutex
	last   []byte         // Lag: the answer to the last tools/call
	failed map[string]int // FlakyCalls: how often each call was failed
	rng    *rand.Rand
	// Failed counts the calls answered 500 by FlakyCalls; Written, the bytes of Huge answers.
	Failed, Written atomic.Int64
	inits           atomic.Int64 // initialize requests (OneSession)
}

func newFaults(o TransportFaults) *faults {
	return &faults{opts: o, failed: map[string]int{}, rng: rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))}
}

// flaky fails this tools/call when FlakyCalls has it fail, and says whether it did.
func (f *faults) flaky(w http.ResponseWriter, req request) bool {
	kind, ok := f.drawFlaky(req)
	if !ok {
		return false
	}
	switch kind {
	case 0:
		http.Error(w, "upstream hiccup", http.StatusInternalServerError)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "200")
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(`{"jsonrpc":"2.0","id":`))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection is closed half-way through the answer
	}
	return true
}

// drawFlaky says whether to fail this tools/call, and how (0: a 500, 1: a reset).
func (f *faults) drawFlaky(req request) (int, bool) {
	if f.opts.FlakyCalls <= 0 {
		return 0, false
	}
	key := req.Params.Name + "\x00" + string(req.Params.Arguments)
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.failed[key]
	if n >= max(f.opts.FlakyTimes, 1) || (n == 0 && f.rng.IntN(f.opts.FlakyCalls) != 0) {
		return 0, false
	}
	f.failed[key] = n + 1
	f.Failed.Add(1)
	return f.rng.IntN(2), true
}

// refuseInit says whether OneSession refuses this request, an initialize after the first.
func (f *faults) refuseInit(req request) bool {
	return req.Method == "initialize" && f.opts.OneSession && f.inits.Add(1) > 1
}

// lagged is the answer to send for a tools/call whose own answer is own: the last one's.
func (f *faults) lagged(own []byte) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	prev := f.last
	f.last = bytes.Clone(own)
	if prev == nil {
		return own
	}
	return prev
}

// huge writes the never-ending answer, until the client stops reading or 10 GiB are out.
func (f *faults) huge(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	chunk := []byte(strings.Repeat("a", 1<<20))
	n, _ := w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"`))
	f.Written.Add(int64(n))
	for range 10 << 10 {
		n, err := w.Write(chunk)
		f.Written.Add(int64(n))
		if err != nil {
			return
		}
	}
}
