package audit_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/audit"
)

// boxed is the wrapped_scalar distortion under another class name.
const boxed corpus.Class = "boxed_scalar"

type boxedMutator struct{ mutators.Mutator }

func (boxedMutator) Class() corpus.Class { return boxed }

func (b boxedMutator) Mutate(t *rapid.T, tg *mutators.Target) (corpus.Case, bool) {
	m, ok := b.Mutator.Mutate(t, tg)
	m.Class = boxed
	return m, ok
}

// TestTheRegistryDrivesTheAudit audits a schema with a registry whose wrapped_scalar is
// renamed boxed_scalar (its mutator and audit hints kept): the audit gives boxed_scalar the
// places and verdicts wrapped_scalar has with the default registry, and nothing of
// wrapped_scalar.
func TestTheRegistryDrivesTheAudit(t *testing.T) {
	var defs []mutators.Definition
	for _, d := range mutators.Default().Definitions() {
		if d.Name == mutators.WrappedScalar {
			d.Name, d.Mutator = boxed, boxedMutator{d.Mutator}
		}
		defs = append(defs, d)
	}
	reg, err := mutators.NewRegistry(defs...)
	if err != nil {
		t.Fatal(err)
	}
	gk := compile(t, `{"type":"object","properties":{"n":{"type":"integer"},"tags":{"type":["string","array"]}},
		"required":["n","tags"],"additionalProperties":false}`)
	verdicts := func(rep audit.Report, c corpus.Class) map[string]audit.Status {
		out := map[string]audit.Status{}
		for _, p := range rep.Places {
			if p.Class == c {
				out[p.Path] = p.Status
			}
		}
		return out
	}
	want := verdicts(audit.Tool(gk, audit.Options{}), mutators.WrappedScalar)
	rep := audit.Tool(gk, audit.Options{Classes: reg})
	got := verdicts(rep, boxed)
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("boxed_scalar places %v, want wrapped_scalar's %v", got, want)
	}
	for path, v := range want {
		if got[path] != v {
			t.Errorf("boxed_scalar at %q: %s, want %s", path, got[path], v)
		}
	}
	if left := verdicts(rep, mutators.WrappedScalar); len(left) > 0 {
		t.Errorf("wrapped_scalar audited with a registry that has none: %v", left)
	}
	for _, p := range rep.Places {
		if p.Class == boxed && p.Status == audit.Caught && p.Witness.From == "mutator" {
			return // the registry's mutator made a witness
		}
	}
	t.Errorf("no boxed_scalar witness from its mutator: %+v", rep.Places)
}
