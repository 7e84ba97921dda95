// Package harness proves a validator of tool-call arguments holds: for every tool it draws
// valid arguments and their distortions (through rapid, so failures shrink), asks the validator
// for a verdict on each, and turns wrong verdicts into findings. It runs inside go test (Check,
// fuzz targets) or on its own (Run), and keeps failing cases in a regression corpus that is
// replayed first.
package harness

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/generate"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// Profile says what a validator may do with a distorted call.
type Profile string

// The profiles.
const (
	// Strict: every distortion must be rejected.
	Strict Profile = "strict"
	// Repair: a distortion may be accepted if the value passed on equals the original valid
	// value exactly (the gate repaired it); anything else accepted is a wrong repair.
	Repair Profile = "repair"
)

// Kind names a finding.
type Kind string

// The kinds of findings.
const (
	FalseReject       Kind = "false_reject"       // a valid case rejected
	Missed            Kind = "missed"             // a must-reject case accepted
	WrongRepair       Kind = "wrong_repair"       // repair profile: accepted, but not repaired to the original
	SilentChange      Kind = "silent_change"      // a valid case accepted, but the value passed on differs
	ImpreciseLocation Kind = "imprecise_location" // rejected, but no issue at the mutated place or above it
	Leak              Kind = "leak"               // an error message repeats a planted canary
	MutatedInput      Kind = "mutated_input"      // the gate changed the argument bytes it was given
	Crash             Kind = "crash"              // the gate panicked or its process died
	Timeout           Kind = "timeout"            // the gate did not answer in time
	ProtocolError     Kind = "protocol_error"     // the gate answered nonsense
)

// Kinds lists every kind, in report order.
func Kinds() []Kind {
	return []Kind{FalseReject, Missed, WrongRepair, SilentChange, ImpreciseLocation, Leak, MutatedInput,
		Crash, Timeout, ProtocolError}
}

// Options configure a run. The zero value is a strict run of every mutator, 100 values per
// tool (or rapid's -rapid.checks) from a random seed (or rapid's -rapid.seed) that the report
// gives.
type Options struct {
	Checks          int                // valid values drawn per tool, each with one distortion per class (0: 100, or -rapid.checks)
	Seed            uint64             // the same seed gives the same cases and report (0: -rapid.seed, else random)
	Mutators        []mutators.Mutator // nil: every mutator
	Profile         Profile            // "" is Strict
	Close           bool               // treat objects that do not say otherwise as closed (OpenAI strict)
	RequireLocation bool               // imprecise_location fails the run
	OnlyReject      bool               // send only must-reject cases to the gate (a correct gate runs none of them)
	Timeout         time.Duration      // an in-process gate slower than this on one case is hung (default 5s)
	CorpusDir       string             // regression cases: replayed first, failures saved here ("": none)
	Jobs            int                // Run: tools checked in parallel (0: GOMAXPROCS)
	Shard, Shards   int                // Run: check only tools whose index % Shards == Shard
	Siblings        []tool.Tool        // tools to borrow keys and enum values from (default: the tools checked)
	Progress        func(done, total int)
}

func (o Options) profile() Profile {
	if o.Profile == "" {
		return Strict
	}
	return o.Profile
}

func (o Options) timeout() time.Duration {
	if o.Timeout <= 0 {
		return 5 * time.Second
	}
	return o.Timeout
}

func (o Options) mutators() []mutators.Mutator {
	if o.Mutators == nil {
		return mutators.All()
	}
	return o.Mutators
}

// Finding is one wrong verdict, with the case that shows it.
type Finding struct {
	Tool     string            `json:"tool"`
	Class    string            `json:"class"`
	Variant  string            `json:"variant,omitempty"`
	Kind     Kind              `json:"kind"`
	Expect   string            `json:"expect"`
	Got      string            `json:"got"` // accepted, rejected, crash, timeout, protocol_error
	Path     string            `json:"path"`
	Keyword  string            `json:"keyword,omitempty"`
	Reason   string            `json:"reason,omitempty"`
	Args     string            `json:"args"`
	ID       string            `json:"id"`
	Detail   string            `json:"detail,omitempty"` // a -want +got diff, the leaked message, the crash
	Issues   []validator.Issue `json:"issues,omitempty"`
	Count    int               `json:"count"`    // cases with this tool, class and kind in the final pass
	Blocking bool              `json:"blocking"` // fails the run (imprecise_location only with RequireLocation)
	Shrunk   bool              `json:"shrunk"`   // minimised by rapid (else the first case seen)
	Case     corpus.Case       `json:"-"`
}

func (f Finding) group() string { return f.Tool + "\x00" + f.Class + "\x00" + string(f.Kind) }

func (f Finding) String() string {
	s := fmt.Sprintf("%s: %s %s: %s (expect %s, got %s)", f.Tool, f.Class, f.Kind, f.Reason, f.Expect, f.Got)
	if f.Reason == "" {
		s = fmt.Sprintf("%s: %s %s (expect %s, got %s)", f.Tool, f.Class, f.Kind, f.Expect, f.Got)
	}
	return s
}

// prepared is one tool ready to be checked.
type prepared struct {
	tool   tool.Tool
	hash   string // tool.SchemaHash, computed once
	oracle *validator.Gatekeeper
	gen    *generate.Generator
	mctx   *mutators.Context
	gate   validator.Gate
}

// siblingsFor is what the tools of the file declare, for borrowed keys and enum values.
func siblingsFor(tools []tool.Tool, opts Options) *mutators.Siblings {
	if opts.Siblings != nil {
		tools = opts.Siblings
	}
	return mutators.SiblingsOf(tools)
}

// prepareOne compiles one tool for the oracle, the generator and the validator under test; a
// tool any of them cannot use is skipped with its reason.
func prepareOne(t tool.Tool, v validator.Validator, opts Options, sib *mutators.Siblings) (*prepared, *tool.Skipped) {
	if opts.Close {
		t = tool.Close(t)
	}
	gk, err := validator.Compile(t)
	if err != nil {
		return nil, &tool.Skipped{Tool: t.Name, Source: t.Source, Reason: unwrapConfig(err)}
	}
	g, err := generate.New(gk)
	if err != nil {
		return nil, &tool.Skipped{Tool: t.Name, Source: t.Source, Reason: err.Error()}
	}
	gate, err := compileGate(v, t)
	if err != nil {
		return nil, &tool.Skipped{Tool: t.Name, Source: t.Source,
			Reason: fmt.Sprintf("validator %s refused the tool: %v", v.Name(), err)}
	}
	return &prepared{tool: t, hash: t.SchemaHash(), oracle: gk, gen: g, gate: gate,
		mctx: mutators.NewContext(gk, sib)}, nil
}

// prepare is prepareOne for every tool, in parallel, keeping the tools' order.
func prepare(tools []tool.Tool, v validator.Validator, opts Options) ([]*prepared, []tool.Skipped) {
	sib := siblingsFor(tools, opts)
	ps := make([]*prepared, len(tools))
	skips := make([]*tool.Skipped, len(tools))
	parallel(len(tools), func(i int) { ps[i], skips[i] = prepareOne(tools[i], v, opts, sib) })
	var out []*prepared
	var skipped []tool.Skipped
	for i := range tools {
		if skips[i] != nil {
			skipped = append(skipped, *skips[i])
		}
		if ps[i] != nil {
			out = append(out, ps[i])
		}
	}
	return out, skipped
}

// parallel calls fn(0..n-1) on GOMAXPROCS goroutines.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// compileGate calls v.Compile, turning a panic into an error.
func compileGate(v validator.Validator, t tool.Tool) (g validator.Gate, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic while compiling: %v", r)
		}
	}()
	return v.Compile(t)
}

func unwrapConfig(err error) string {
	if ce, ok := err.(*validator.ConfigError); ok {
		return "unusable schema: " + ce.Err.Error()
	}
	return err.Error()
}
