package harness

import (
	"context"
	"time"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/tool"
)

// Options configure a run. The zero value is a strict run of every mutator, 100 values per
// tool (or rapid's -rapid.checks) from a random seed (or rapid's -rapid.seed) that the report
// gives.
type Options struct {
	// Checks is the valid values drawn per tool, each with one distortion per class (0: 100, or
	// -rapid.checks).
	Checks int
	Seed   uint64 // the same seed gives the same cases and report (0: -rapid.seed, else random)
	// ShrinkSteps is the most draws sent to the gate while minimising one finding (0:
	// DefaultShrinkSteps).
	ShrinkSteps     int
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
	Files           Files              // the tool files' text, to say where in them each finding is (zero: nowhere)
	// Weights, when set, draws each value's distortions by class in these proportions (the
	// counts toolproof classify finds in a log, say) instead of one of every class: as many
	// distortions a value as there are classes, each class at least WeightsFloor of them.
	Weights      map[corpus.Class]float64
	WeightsFloor float64 // the least share of the distortions a class gets (0: a quarter of an even share)
	Progress     func(done, total int)
	// Cases, when set, is called with the number of cases of each draw as it is judged, inside a
	// tool (from several goroutines at once when tools run in parallel): for live progress.
	Cases func(n int)
	// DeclaredDefaultsBlock makes declared_default (a default the model-facing schema declares,
	// filled in) a blocking finding; it is reported, not blocking, otherwise.
	DeclaredDefaultsBlock bool
	// Stop, when done, ends the run early (a signal, a time budget): tools not begun are left
	// out, those under way end after the draw in hand and are not shrunk, and the report says
	// why (context.Cause) in Report.Interrupted. nil: the run goes to the end.
	Stop context.Context

	observe func(tool string, cs []corpus.Case) // tests: sees the cases of every scorecard draw
	blind   bool                                // the validator is validator.ValueBlind (set by Run and Replay)
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

// MaxSilentCalls is how many calls of one tool in a row, in the order they were drawn, may end
// in a timeout before the run is stopped: the validator has stopped answering (an external one
// is restarted after each timeout, so it stayed silent through restarts too), and going on
// would cost every remaining case its own timeout. The run ends as an interrupted one, with the
// report of what was checked.
const MaxSilentCalls = 4

// stopped reports whether the run was stopped (Options.Stop).
func (o Options) stopped() bool { return o.Stop != nil && o.Stop.Err() != nil }

// stopDone is Options.Stop's Done channel, nil (never ready) without one.
func (o Options) stopDone() <-chan struct{} {
	if o.Stop == nil {
		return nil
	}
	return o.Stop.Done()
}
