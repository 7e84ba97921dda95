package mutators

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// AuditHints are what the audit (mutators/audit) knows of a class: what a schema's keywords
// say of it at a place, the forms the audit builds there itself, and where its cases belong.
// A class with no Analyse is not audited.
type AuditHints struct {
	// Analyse is what the keywords at one place of a schema suggest: the class caught there or
	// passing, and why (none: the class says nothing of such a place).
	Analyse func(p *SchemaPlace) []Hint
	// Probe adds the forms the audit tries at one place of a valid sample, whatever the schema
	// says there (the mutator keeps only what the oracle rejects; the audit wants both).
	Probe func(p *Probe)
	// Anchor is the place of the analysis a case of the class belongs to.
	Anchor Anchor
	// Breaks: the forms break a constraint rather than change the value's shape, so one the
	// oracle accepts only shows that it broke nothing; the class passes at a place only where
	// every form built there is accepted, and every form is tried.
	Breaks bool
	// LeavesOut: the forms leave a name out, so where the place requires names one the oracle
	// accepts was not required of that value (a branch asks for it elsewhere) and is no witness.
	LeavesOut bool
}

// Anchor says which place of the audit's analysis a case belongs to (not a case's Scope, the
// place a gate can know it at).
type Anchor int

// The anchors of a case.
const (
	AtValue  Anchor = iota // the value at the case's path
	AtObject               // the object holding the key the case adds or leaves out
	AtRoot                 // the arguments as a whole
)

// Place is the path of the analysis a case at path belongs to.
func (a Anchor) Place(path string) string {
	switch a {
	case AtObject:
		return jsonvalue.Parent(path)
	case AtRoot:
		return ""
	}
	return path
}

// SchemaPlace is one place of a schema as the audit's analysis reads it.
type SchemaPlace struct {
	Path  string // a JSON Pointer where "*" stands for any array index or map key
	Where string // the place as a reason names it ("the root" for "")
	Desc  string // its types as a reason names them: "untyped", "typed [number, string]"
	Root  bool
	// Types are the JSON types the place allows (nil: any), enum and const counted.
	Types map[string]bool
	// Constraints are the keywords there a value may break (enum, minimum, pattern, ...;
	// "integer" for an integer type), each once.
	Constraints []string
	Object      *ObjectShape // what it says of an object; nil where it declares none
	Array       bool         // it declares array items
}

// May reports whether the place allows type t.
func (p *SchemaPlace) May(t string) bool { return p.Types == nil || p.Types[t] }

// ObjectShape is what the schemas at one place say of an object.
type ObjectShape struct {
	Closed   string   // the keyword that closes it ("additionalProperties: false"), "" when open
	Map      bool     // additionalProperties is a schema
	Names    bool     // propertyNames restricts its keys
	Required []string // the names it requires, each once
	Declared []string // the names it declares, sorted
}

// A Hint is what a schema's keywords suggest of a class at a place: caught or passing, why,
// and at an object place the names it requires and declares (the forms the audit builds).
type Hint struct {
	Passes bool
	Why    string
	// Unconstrained: the class passes only because the place declares nothing for it to leave (a
	// free string, a number without bounds), so what passes there is another valid value, not a
	// distortion a model sends.
	Unconstrained      bool
	Required, Declared []string
}

// Probe is one place of one valid sample where the audit builds a class's forms.
type Probe struct {
	Value    any      // the sample's value
	Text     []byte   // its argument text
	Loc      []string // the place's reference tokens
	Path     string   // its JSON Pointer
	X        any      // the value there
	Type     string   // its JSON type
	Declared []string // the names the analysis found declared at the place
	Required []string // and required
	Forms    []ProbeForm
	siblings []any // the items beside X, when it is an array item
}

// ProbeForm is one form the audit built: the argument text, the place touched, the variant and
// what was changed.
type ProbeForm struct {
	Args    []byte
	Path    string
	Variant string
	Reason  string
}

// ProbeCanary is the string the audit plants where a form needs one.
const ProbeCanary = "tpc-audit"

// NewProbe returns the probe of the sample value (its text) at loc; ok is false when the
// value has no such place.
func NewProbe(value any, text []byte, loc, declared, required []string) (p *Probe, ok bool) {
	x, ok := jsonvalue.Get(value, jsonvalue.Pointer(loc))
	if !ok {
		return nil, false
	}
	p = &Probe{Value: value, Text: text, Loc: loc, Path: jsonvalue.Pointer(loc), X: x, Type: jsonvalue.TypeName(x),
		Declared: declared, Required: required}
	// An array item changed into a copy of another item breaks uniqueItems by chance, not as
	// the class means: such a change is not tried.
	if len(loc) > 0 {
		if a, ok := jsonvalue.Get(value, jsonvalue.Pointer(loc[:len(loc)-1])); ok {
			p.siblings, _ = a.([]any)
		}
	}
	return p, true
}

// Scalar reports whether the value at the place is neither an object nor an array.
func (p *Probe) Scalar() bool { return p.Type != "object" && p.Type != "array" }

// heldKeys is the object at the place and the keys a form that renames or leaves out a name
// works on: each required name the object holds (each declared one, when none is required), in
// name order; none when the value there is no object.
func (p *Probe) heldKeys() (obj map[string]any, keys []string) {
	obj, ok := p.X.(map[string]any)
	if !ok {
		return nil, nil
	}
	names := p.Required
	if len(names) == 0 {
		names = p.Declared
	}
	for _, k := range slices.Sorted(slices.Values(names)) {
		if _, present := obj[k]; present {
			keys = append(keys, k)
		}
	}
	return obj, keys
}

// Put adds the sample with the value at the place replaced by nv, unless nv equals a sibling
// item; the reason is format with args.
func (p *Probe) Put(variant string, nv any, format string, args ...any) {
	for i, e := range p.siblings {
		if strconv.Itoa(i) != p.Loc[len(p.Loc)-1] && jsonvalue.Equal(e, nv) {
			return
		}
	}
	p.Forms = append(p.Forms, ProbeForm{Args: jsonvalue.MustMarshal(jsonvalue.Replaced(p.Value, p.Loc, nv)),
		Path: p.Path, Variant: variant, Reason: fmt.Sprintf(format, args...)})
}

// PutArgs adds a form given as its whole argument text, touching path.
func (p *Probe) PutArgs(args []byte, path, variant, reason string) {
	p.Forms = append(p.Forms, ProbeForm{Args: args, Path: path, Variant: variant, Reason: reason})
}

// PutObject adds the sample with the object at the place replaced by obj, touching path.
func (p *Probe) PutObject(obj map[string]any, path, variant, reason string) {
	p.PutArgs(jsonvalue.MustMarshal(jsonvalue.Replaced(p.Value, p.Loc, obj)), path, variant, reason)
}

// where names a place in a reason: "the arguments" for the root.
func where(path string) string {
	if path == "" {
		return "the arguments"
	}
	return path
}

// sortedKeys returns the keys of obj in order.
func sortedKeys(obj map[string]any) []string {
	ks := make([]string, 0, len(obj))
	for k := range obj {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// withKey returns a copy of obj with k set to v.
func withKey(obj map[string]any, k string, v any) map[string]any {
	m := make(map[string]any, len(obj)+1)
	for kk, e := range obj {
		m[kk] = e
	}
	m[k] = v
	return m
}

// withoutKey returns a copy of obj without k.
func withoutKey(obj map[string]any, k string) map[string]any {
	m := make(map[string]any, len(obj))
	for kk, e := range obj {
		if kk != k {
			m[kk] = e
		}
	}
	return m
}

// passing is the one hint that the class passes at the place, why written by format.
func passing(format string, args ...any) []Hint {
	return []Hint{{Passes: true, Why: fmt.Sprintf(format, args...)}}
}

// unconstrained is the one hint that the class passes at the place because the place declares
// nothing for it to leave, why written by format.
func unconstrained(format string, args ...any) []Hint {
	return []Hint{{Passes: true, Unconstrained: true, Why: fmt.Sprintf(format, args...)}}
}

// caught is the one hint that the class is caught at the place, why written by format.
func caught(format string, args ...any) []Hint {
	return []Hint{{Why: fmt.Sprintf(format, args...)}}
}
