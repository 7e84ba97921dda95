// Package harness proves a validator of tool-call arguments holds: for every tool it draws
// valid arguments and their distortions (through rapid, so failures shrink), asks the validator
// for a verdict on each, and turns wrong verdicts into findings. It runs inside go test (Check,
// fuzz targets) or on its own (Run), and keeps failing cases in a regression corpus that is
// replayed first.
package harness

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/toolproof/toolproof/cases"
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
	// A gate with no verdict: the kinds are the validator's faults.
	Crash         = Kind(validator.Crash)
	Timeout       = Kind(validator.Timeout)
	ProtocolError = Kind(validator.ProtocolError)
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
	ShrinkSteps     int                // the most draws sent to the gate while minimising one finding (0: DefaultShrinkSteps)
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

	observe func(tool string, cs []cases.Case) // tests: sees the cases of every scorecard draw
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

// Finding is one wrong verdict: the case that shows it (its tool, class, expectation, place,
// reason, arguments and id) and what the gate did with it.
type Finding struct {
	cases.Case
	Kind     Kind
	Got      string            // accepted, rejected, unclear, crash, timeout, protocol_error
	Detail   string            // a -want +got diff, the leaked message, the crash
	Issues   []validator.Issue // what the gate said
	Count    int               // cases with this tool, class and kind in the final pass
	Blocking bool              // fails the run (imprecise_location only with RequireLocation)
	Shrunk   bool              // minimised by rapid (else the first case seen)
}

// findingJSON is the JSON form of a Finding: the case's fields and the verdict's, flat.
type findingJSON struct {
	Tool       string            `json:"tool"`
	Class      cases.Class       `json:"class"`
	Variant    string            `json:"variant,omitempty"`
	Kind       Kind              `json:"kind"`
	Expect     cases.Expect      `json:"expect"`
	Got        string            `json:"got"`
	Path       string            `json:"path"`
	Scope      string            `json:"scope,omitempty"`
	Also       []cases.Place     `json:"also,omitempty"`
	Keyword    string            `json:"keyword,omitempty"`
	Reason     string            `json:"reason,omitempty"`
	Canary     string            `json:"canary,omitempty"`
	Args       string            `json:"args"`
	ArgsBase64 string            `json:"args_base64,omitempty"` // the exact text, when it is not UTF-8
	Original   string            `json:"original,omitempty"`    // the valid arguments the distortion started from
	ID         string            `json:"id"`
	SchemaHash string            `json:"schema_hash,omitempty"`
	Detail     string            `json:"detail,omitempty"`
	Issues     []validator.Issue `json:"issues,omitempty"`
	Count      int               `json:"count"`
	Blocking   bool              `json:"blocking"`
	Shrunk     bool              `json:"shrunk"`
}

// MarshalJSON writes the finding flat: its case's fields beside the verdict's.
func (f Finding) MarshalJSON() ([]byte, error) {
	j := findingJSON{Tool: f.Tool, Class: f.Class, Variant: f.Variant, Kind: f.Kind, Expect: f.Expect, Got: f.Got,
		Path: f.Path, Scope: f.Scope, Also: f.Also, Keyword: f.Keyword, Reason: f.Reason, Canary: f.Canary, Args: string(f.Args),
		Original: string(f.Original), ID: f.ID, SchemaHash: f.SchemaHash, Detail: f.Detail,
		Issues: f.Issues, Count: f.Count, Blocking: f.Blocking, Shrunk: f.Shrunk}
	if !utf8.Valid(f.Args) {
		j.ArgsBase64 = base64.StdEncoding.EncodeToString(f.Args)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Finding) UnmarshalJSON(b []byte) error {
	var j findingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	args := []byte(j.Args)
	if j.ArgsBase64 != "" {
		raw, err := base64.StdEncoding.DecodeString(j.ArgsBase64)
		if err != nil {
			return fmt.Errorf("finding %s: args_base64: %v", j.ID, err)
		}
		args = raw
	}
	var original []byte
	if j.Original != "" {
		original = []byte(j.Original)
	}
	*f = Finding{Case: cases.Case{ID: j.ID, Tool: j.Tool, SchemaHash: j.SchemaHash, Args: args, Original: original,
		Expect: j.Expect, Class: j.Class, Variant: j.Variant, Path: j.Path, Scope: j.Scope, Also: j.Also, Keyword: j.Keyword,
		Reason: j.Reason, Canary: j.Canary},
		Kind: j.Kind, Got: j.Got, Detail: j.Detail, Issues: j.Issues, Count: j.Count, Blocking: j.Blocking, Shrunk: j.Shrunk}
	return nil
}

func (f Finding) group() string { return f.Tool + "\x00" + string(f.Class) + "\x00" + string(f.Kind) }

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
	p, skip := prepareOracle(t, opts.Close, sib)
	if skip != nil {
		return nil, skip
	}
	// The reference gate is the oracle compiled again: take the oracle.
	if _, ok := v.(validator.Reference); ok {
		p.gate = p.oracle
		return p, nil
	}
	gate, err := compileGate(v, p.tool)
	if err != nil {
		return nil, &tool.Skipped{Tool: p.tool.Name, Source: p.tool.Source,
			Reason: fmt.Sprintf("validator %s refused the tool: %v", v.Name(), err)}
	}
	p.gate = gate
	return p, nil
}

// prepareOracle is the one way a tool is made ready to draw cases for: closed when asked,
// compiled for the oracle and the generator, with the mutators' context; a tool they cannot use
// is skipped with its reason. The gate is left for the caller.
func prepareOracle(t tool.Tool, close bool, sib *mutators.Siblings) (*prepared, *tool.Skipped) {
	if close {
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
	return &prepared{tool: t, hash: t.SchemaHash(), oracle: gk, gen: g, mctx: mutators.NewContext(gk, sib)}, nil
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
