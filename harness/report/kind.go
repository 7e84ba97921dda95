package report

// Kind names a finding.
type Kind string

// The kinds of findings.
const (
	FalseReject       Kind = "false_reject"       // a valid case rejected
	Missed            Kind = "missed"             // a must-reject case accepted
	WrongRepair       Kind = "wrong_repair"       // repair profile: accepted, but not repaired to the original
	SilentChange      Kind = "silent_change"      // a valid case accepted, but the value passed on differs
	ImpreciseLocation Kind = "imprecise_location" // rejected, but no issue at the mutated place or above it
	Leak              Kind = "leak"               // a rejection repeats a value the model sent
	MutatedInput      Kind = "mutated_input"      // the gate changed the argument bytes it was given
	// DeclaredDefault: a valid case accepted, and the value passed on differs only by defaults
	// the model-facing schema declares, filled in where the key was absent: the model was told.
	// Reported apart from silent_change; blocking only when the run says so
	// (harness.Options.DeclaredDefaultsBlock, --block-declared-defaults).
	DeclaredDefault Kind = "declared_default"
	// A gate with no verdict: the kinds are the validator's faults (validator.Fault), each
	// named as its fault is; the harness maps a fault to its kind.
	Crash         Kind = "crash"          // the validator panicked or its process died
	Timeout       Kind = "timeout"        // no answer within the time allowed
	ProtocolError Kind = "protocol_error" // the adapter's own failure
	GateError     Kind = "gate_error"     // the gate threw on the input: its message and stack
)

// Kinds lists every kind, in report order.
func Kinds() []Kind {
	return []Kind{FalseReject, Missed, WrongRepair, SilentChange, DeclaredDefault,
		ImpreciseLocation, Leak, MutatedInput,
		Crash, Timeout, ProtocolError, GateError}
}
