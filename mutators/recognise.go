package mutators

import (
	"slices"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// Recognition is the taxonomy read backwards: each class's recogniser sits beside its
// mutator (in the class's file, or recognise_<class>.go), is named in its Definition, and
// undoes, or names, what the mutator does. A call is read in three layers, as the mutators distort it: its text
// (malformed_json, implementation_defined), its root (root_not_object), then its value, where
// distortions are undone one at a time (the undoers in the order of their ranks) while each
// undoing leaves the oracle fewer issues, and the issues left are named by keyword (the
// explainers in the order of theirs).

// Reading is what Recognise finds a call to be.
type Reading string

// The readings of a recognised call.
const (
	Valid   Reading = "valid"   // the oracle accepts it
	Invalid Reading = "invalid" // rejected, and every issue named by a class
	// Either: its verdict depends on how numbers (or formats) are read, or RFC 8259 leaves it open.
	Either      Reading = "either"
	Unexplained Reading = "unexplained"  // rejected, with issues no class names
	UnknownTool Reading = "unknown_tool" // no tool of that name (set by callers that map names)
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

// Recognition is what Recognise finds in one call.
type Recognition struct {
	Reading     Reading           `json:"verdict"`
	Distortions []Distortion      `json:"classes,omitempty"`
	Issues      []validator.Issue `json:"issues,omitempty"` // the oracle's issues no class names (Unexplained)
	Reason      string            `json:"reason,omitempty"` // why Either, in a few words
}

// Names reports whether c reads the mutation m back: the verdict m owes (Invalid for a
// must-reject case, Either for an either one) and m's class and variant at m's place (or, read
// as another class that writes the same text, at a member inside it).
func (c Recognition) Names(m corpus.Case) bool {
	want := Invalid
	if m.Expect == corpus.Either {
		want = Either
	}
	if c.Reading != want {
		return false
	}
	for _, d := range c.Distortions {
		if d.Is(m.Class, m.Variant) &&
			(d.Path == m.Path || (d.Class != m.Class && jsonvalue.IsPrefix(m.Path, d.Path))) {
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

// Recognise reads one call's raw argument text against the Context's tool and names its
// distortions: the verdict, and for an invalid call the class and variant of each distortion at
// its place. It is safe for concurrent use.
func (c *Context) Recognise(args []byte) Recognition {
	return c.recognise(args, defaultRecognisers())
}

// recognisers are the classes' recognisers a recognition uses: the text and root layers'
// and the value's, in order (a test breaks one on purpose).
type recognisers struct {
	text       func(b []byte) (v any, parsed bool, ds []Distortion, either string)
	root       func(v any) (obj any, ds []Distortion, ok bool)
	undoers    []undoer    // the classes that can be undone, in the order they are tried
	explainers []explainer // the classes that name what no undoing removes, in order
}

// defaultRecognisers are the recognisers of the Default registry.
func defaultRecognisers() recognisers { return Default().recognisers() }

// recognise is Recognise with the recognisers rs.
func (c *Context) recognise(args []byte, rs recognisers) Recognition {
	var out Recognition
	v, parsed, ds, either := rs.text(args)
	out.Distortions = ds
	if either != "" {
		out.Reading, out.Reason = Either, either
		return out
	}
	if !parsed {
		out.Reading = Invalid
		return out
	}
	v, ds, ok := rs.root(v)
	out.Distortions = append(out.Distortions, ds...)
	if !ok {
		out.Reading = Invalid
		return out
	}
	return c.recogniseValue(v, out, rs)
}

// recogniseValue recognises an arguments object, after what was found in its text and root.
func (c *Context) recogniseValue(v any, out Recognition, rs recognisers) Recognition {
	issues := c.readings.Errors(v)
	if issues == nil {
		out.Reading = Valid
		if len(out.Distortions) > 0 {
			out.Reading = Invalid
		} else if c.DoublesDiffer(v, true) {
			out.Reading, out.Reason = Either, "valid exactly, not when its numbers are read as doubles"
		}
		return out
	}
	if c.DoublesDiffer(v, false) {
		out.Reason = "invalid exactly, not when its numbers are read as doubles"
	} else if c.laxValid(v) {
		out.Reason = "invalid only where format is asserted"
	}
	r := &undoing{ctx: c, rs: rs, value: v, issues: issues}
	for i := 0; i < maxUndo && r.undoOne(); i++ {
	}
	var left []validator.Issue
	if r.issues != nil {
		left = r.explain()
	}
	out.Distortions = append(out.Distortions, r.found...)
	if out.Reason != "" {
		out.Reading = Either // what was found is named, but no verdict is owed
		return out
	}
	if len(left) > 0 {
		out.Reading = Unexplained
		out.Issues = c.Oracle().Issues(r.value)
		return out
	}
	out.Reading = Invalid
	return out
}
