package harness

import (
	"testing"

	"github.com/toolproof/toolproof/validator"
)

// A gate with no verdict is a finding of its fault's kind, named as the fault is, so that a
// report read back names the kind the validator's fault has.
func TestFaultKind(t *testing.T) {
	for _, f := range []validator.Fault{validator.Crash, validator.Timeout,
		validator.ProtocolError, validator.GateError} {
		if k := faultKind(f); string(k) != string(f) {
			t.Errorf("fault %s: kind %s", f, k)
		}
	}
	if k := faultKind(validator.Crash); k != "crash" {
		t.Errorf("crash: %s", k)
	}
}
