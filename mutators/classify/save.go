package classify

import (
	"fmt"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
)

// UnexplainedClass is the class a saved call gets when the oracle rejects it but no class names
// why.
const UnexplainedClass corpus.Class = "unexplained"

// CaseOf is the regression case of a classified call: its text as the model wrote it, the
// verdict a gate owes it and its first class. ok is false for a call that owes no verdict
// (either, unknown_tool) and, unless valid is set, for a valid one.
func (c *Classifier) CaseOf(r Result, source string, valid bool) (corpus.Case, bool) {
	t, known := c.Tool(r.Tool)
	if !known {
		return corpus.Case{}, false
	}
	cs := corpus.Case{Tool: r.Tool, SchemaHash: t.SchemaHash(), Args: r.Args,
		Provenance: fmt.Sprintf("classify %s line %d", source, r.Line)}
	switch r.Reading {
	case mutators.Valid:
		if !valid {
			return corpus.Case{}, false
		}
		cs.Expect, cs.Class, cs.Reason = corpus.Accept, corpus.Valid, "a logged call the schema accepts"
	case mutators.Invalid:
		if len(r.Distortions) == 0 {
			return corpus.Case{}, false // never: an invalid call names a class
		}
		d := r.Distortions[0]
		cs.Expect, cs.Class, cs.Variant, cs.Path, cs.Keyword = corpus.Reject, d.Class, d.Variant, d.Path, d.Keyword
		cs.Reason = fmt.Sprintf("a logged call: %s", describe(r.Distortions))
	case mutators.Unexplained:
		cs.Expect, cs.Class = corpus.Reject, UnexplainedClass
		cs.Reason = fmt.Sprintf("a logged call the schema rejects: %v", r.Issues)
	default:
		return corpus.Case{}, false
	}
	return cs.Seal(), true
}

// Save writes the regression cases of the results to dir (corpus.Save: one file per case, named
// by its hash, so a call saved twice is one file): the invalid and unexplained calls, and with
// valid the valid ones. It returns how many it wrote.
func (c *Classifier) Save(dir string, rs []Result, source string, valid bool) (int, error) {
	n := 0
	for _, r := range rs {
		cs, ok := c.CaseOf(r, source, valid)
		if !ok {
			continue
		}
		if _, err := corpus.Save(dir, cs); err != nil {
			return n, fmt.Errorf("saving the call of line %d: %v", r.Line, err)
		}
		n++
	}
	return n, nil
}

// describe names the distortions of a call: "stringified_type/exact at /limit, ...".
func describe(ds []mutators.Distortion) string {
	out := ""
	for i, d := range ds {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%s/%s at %s", d.Class, d.Variant, pointer(d.Path))
	}
	return out
}
