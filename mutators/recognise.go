package mutators

import (
	"slices"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// The classifier is the taxonomy read backwards: each class's recogniser sits beside its
// mutator (in the class's file, or recognise_<class>.go), is named in its Definition, and
// undoes, or names, what the mutator does. A call is read in three layers, as the mutators distort it: its text
// (malformed_json, implementation_defined), its root (root_not_object), then its value, where
// distortions are undone one at a time (the undoers in the order of their ranks) while each
// undoing leaves the oracle fewer issues, and the issues left are named by keyword (the
// explainers in the order of theirs).

// Verdict is what Classify finds a call to be.
type Verdict string

// The verdicts of a classified call.
const (
	Valid       Verdict = "valid"        // the oracle accepts it
	Invalid     Verdict = "invalid"      // rejected, and every issue named by a class
	Either      Verdict = "either"       // its verdict depends on how numbers (or formats) are read, or RFC 8259 leaves it open
	Unexplained Verdict = "unexplained"  // rejected, with issues no class names
	UnknownTool Verdict = "unknown_tool" // no tool of that name (set by callers that map names)
)

// Distortion is one distortion found in a call: its class and variant at a JSON Pointer.
type Distortion struct {
	Class   corpus.Class `json:"class"`
	Variant string       `json:"variant"`
	// Alike lists the other variants of the class that write the same text here (the string
	// "20.0" is "exact" for the number 20.0 and "decimal" for 20).
	Alike   []string `json:"alike,omitempty"`
	Path    string   `json:"path"`
	Keyword string   `json:"keyword,omitempty"` // the keyword the oracle reported, when one did
}

// Is reports whether d is of class c and variant v, or writes the same text as it (an Alike
// "variant", or "class:variant" of another class; "class:variant@pointer" names the same text
// read at another place).
func (d Distortion) Is(c corpus.Class, v string) bool {
	if d.Class == c && (d.Variant == v || slices.Contains(d.Alike, v)) {
		return true
	}
	return slices.Contains(d.Alike, string(c)+":"+v)
}

// Classification is what Classify finds in one call.
type Classification struct {
	Verdict     Verdict           `json:"verdict"`
	Distortions []Distortion      `json:"classes,omitempty"`
	Issues      []validator.Issue `json:"issues,omitempty"` // the oracle's issues no class names (Unexplained)
	Reason      string            `json:"reason,omitempty"` // why Either, in a few words
}

// Names reports whether c reads the mutation m back: the verdict m owes (Invalid for a
// must-reject case, Either for an either one) and m's class and variant at m's place (or, read
// as another class that writes the same text, at a member inside it).
func (c Classification) Names(m corpus.Case) bool {
	want := Invalid
	if m.Expect == corpus.Either {
		want = Either
	}
	if c.Verdict != want {
		return false
	}
	for _, d := range c.Distortions {
		if d.Is(m.Class, m.Variant) && (d.Path == m.Path || (d.Class != m.Class && jsonvalue.IsPrefix(m.Path, d.Path))) {
			return true
		}
		if slices.Contains(d.Alike, string(m.Class)+":"+m.Variant+"@"+m.Path) {
			return true
		}
	}
	return false
}

// maxUndo bounds the distortions undone in one call.
const maxUndo = 32

// Classify reads one call's raw argument text against the Context's tool and names its
// distortions: the verdict, and for an invalid call the class and variant of each distortion at
// its place. It is safe for concurrent use.
func (c *Context) Classify(args []byte) Classification {
	return c.classify(args, defaultRecognisers())
}

// recognisers are the classes' recognisers a classification uses: the text and root layers'
// and the value's, in order (a test breaks one on purpose).
type recognisers struct {
	text       func(b []byte) (v any, parsed bool, ds []Distortion, either string)
	root       func(v any) (obj any, ds []Distortion, ok bool)
	undoers    []undoer    // the classes that can be undone, in the order they are tried
	explainers []explainer // the classes that name what no undoing removes, in order
}

// defaultRecognisers are the recognisers of the Default registry.
func defaultRecognisers() recognisers { return Default().recognisers() }

// classify is Classify with the recognisers rs.
func (c *Context) classify(args []byte, rs recognisers) Classification {
	var out Classification
	v, parsed, ds, either := rs.text(args)
	out.Distortions = ds
	if either != "" {
		out.Verdict, out.Reason = Either, either
		return out
	}
	if !parsed {
		out.Verdict = Invalid
		return out
	}
	v, ds, ok := rs.root(v)
	out.Distortions = append(out.Distortions, ds...)
	if !ok {
		out.Verdict = Invalid
		return out
	}
	return c.classifyValue(v, out, rs)
}

// classifyValue classifies an arguments object, after what was found in its text and root.
func (c *Context) classifyValue(v any, out Classification, rs recognisers) Classification {
	issues := c.readings.Where(v)
	if issues == nil {
		out.Verdict = Valid
		if len(out.Distortions) > 0 {
			out.Verdict = Invalid
		} else if c.DoublesDiffer(v, true) {
			out.Verdict, out.Reason = Either, "valid exactly, not when its numbers are read as doubles"
		}
		return out
	}
	if c.DoublesDiffer(v, false) {
		out.Reason = "invalid exactly, not when its numbers are read as doubles"
	} else if c.laxValid(v) {
		out.Reason = "invalid only where format is asserted"
	}
	r := &reading{ctx: c, rs: rs, value: v, issues: issues}
	for i := 0; i < maxUndo && r.undoOne(); i++ {
	}
	var left []validator.Issue
	if r.issues != nil {
		left = r.explain()
	}
	out.Distortions = append(out.Distortions, r.found...)
	if out.Reason != "" {
		out.Verdict = Either // what was found is named, but no verdict is owed
		return out
	}
	if len(left) > 0 {
		out.Verdict = Unexplained
		out.Issues = c.Oracle().Issues(r.value)
		return out
	}
	out.Verdict = Invalid
	return out
}
