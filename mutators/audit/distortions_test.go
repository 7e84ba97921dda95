package audit_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/audit"
)

// freeReason is the reason out_of_range_enum's hints give a free string.
const freeReason = " is a free string: no enum, pattern or length to leave"

// reworded is the default registry with every audit reason rewritten: out_of_range_enum's made
// to say nothing of free strings, every other class's made to end as a free string's does.
func reworded(t *testing.T) *mutators.Registry {
	t.Helper()
	var defs []mutators.Definition
	for _, d := range mutators.Default().Definitions() {
		if analyse := d.Audit.Analyse; analyse != nil {
			name := d.Name
			d.Audit.Analyse = func(p *mutators.SchemaPlace) []mutators.Hint {
				hs := analyse(p)
				for i := range hs {
					if name == mutators.OutOfRangeEnum {
						hs[i].Why = "reworded: " + string(name) + " at " + p.Where
					} else {
						hs[i].Why = p.Where + freeReason
					}
				}
				return hs
			}
		}
		defs = append(defs, d)
	}
	reg, err := mutators.NewRegistry(defs...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestModelDistortionsKeyOnStructure: the places ModelDistortions keeps are the same whatever
// the reasons say. A free string and an unbounded number are left out as out_of_range_enum
// passes; the enum and a bounded number are kept (caught); the other classes' places are kept,
// even with a reason worded as a free string's.
func TestModelDistortionsKeyOnStructure(t *testing.T) {
	gk := compile(t, `{"type":"object","properties":{"note":{"type":"string"},"n":{"type":"number"},
		"mode":{"enum":["a","b"]},"limit":{"type":"integer","minimum":1},"id":{"type":["integer","string"]}},
		"required":["note","n","mode","limit","id"]}`)
	type verdict struct {
		Class, Path string
		Status      audit.Status
	}
	kept := func(reg *mutators.Registry) []verdict {
		var out []verdict
		for _, p := range audit.ModelDistortions(audit.Tool(gk, audit.Options{Classes: reg}).Places) {
			out = append(out, verdict{string(p.Class), p.Path, p.Status})
		}
		return out
	}
	want := kept(nil)
	if diff := cmp.Diff(want, kept(reworded(t))); diff != "" {
		t.Errorf("rewording the reasons changes the places kept (-default +reworded):\n%s", diff)
	}
	has := map[verdict]bool{}
	classes := map[string]bool{}
	for _, v := range want {
		has[v] = true
		classes[v.Class] = true
	}
	for _, path := range []string{"/note", "/n"} {
		if has[verdict{string(mutators.OutOfRangeEnum), path, audit.Passes}] {
			t.Errorf("out_of_range_enum at the unconstrained %s is kept as a pass", path)
		}
	}
	for _, path := range []string{"/mode", "/limit"} {
		if !has[verdict{string(mutators.OutOfRangeEnum), path, audit.Caught}] {
			t.Errorf("out_of_range_enum at %s is not kept as caught: %v", path, want)
		}
	}
	if !has[verdict{string(mutators.StringifiedType), "/id", audit.Passes}] || len(classes) < 5 {
		t.Errorf("the other classes' places are not kept: %v", want)
	}
}

// The free string's place is reported, marked unconstrained, by Tool; only ModelDistortions
// leaves it out.
func TestUnconstrainedIsMarked(t *testing.T) {
	_, got := run(t, `{"type":"object","properties":{"note":{"type":"string"}},"required":["note"]}`)
	if p := got["out_of_range_enum /note"]; p.Status != audit.Passes || !p.Unconstrained {
		t.Errorf("out_of_range_enum at the free string /note: %s, unconstrained %v, want passes and unconstrained",
			p.Status,
			p.Unconstrained)
	}
	for key, p := range got {
		if p.Unconstrained && key != "out_of_range_enum /note" {
			t.Errorf("%s marked unconstrained", key)
		}
	}
}
