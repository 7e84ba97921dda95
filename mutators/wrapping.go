package mutators

import (
	"slices"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// wrapped_scalar: x written as [x]; wrapper_nesting: the arguments nested in an envelope,
// {"arguments": {...}}.

// WrappedScalar is the class of x written as [x].
const WrappedScalar corpus.Class = "wrapped_scalar"

func wrappedScalarClass() Definition {
	return Definition{Name: WrappedScalar, Mutator: wrappedScalar{}, Doc: "`x` as `[x]`",
		recognise: recogniser{undo: wrappedScalar{}, undoRank: 4},
		Audit:     AuditHints{Analyse: wrappedHints, Probe: wrappedProbe}}
}

type wrappedScalar struct{}

func (wrappedScalar) Class() corpus.Class { return WrappedScalar }

func (wrappedScalar) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	places := nonRoot(tg, func(s *site) bool {
		switch s.value.(type) {
		case []any, map[string]any:
			return false
		}
		return !s.mayBe("array")
	})
	return firstConfirmed(t, tg, WrappedScalar, places, func(t *rapid.T, s *site) []candidate {
		return []candidate{{build: at(tg, s, []any{s.value}), replaces: s, with: []any{s.value},
			path: s.path, variant: "wrapped",
			keywords: typeKeywords, reason: because("the %s at %s wrapped in an array",
				jsonvalue.TypeName(s.value), s.path)}}
	})
}

// WrapperNesting is the class of the arguments nested in an envelope.
const WrapperNesting corpus.Class = "wrapper_nesting"

func wrapperNestingClass() Definition {
	return Definition{Name: WrapperNesting, Mutator: wrapperNesting{},
		Doc:       "`{\"arguments\": {...}}`, `{\"parameters\": ...}`, `{\"input\": ...}`, ...",
		recognise: recogniser{undo: wrapperNesting{}, undoRank: 1},
		Audit:     AuditHints{Analyse: wrapperHints, Probe: wrapperProbe, Anchor: AtRoot}}
}

type wrapperNesting struct{}

func (wrapperNesting) Class() corpus.Class { return WrapperNesting }

var wrapperKeys = []string{"arguments", "parameters", "input", "args", "params", "kwargs"}

func (wrapperNesting) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	root := tg.sites[:1]
	return firstConfirmed(t, tg, WrapperNesting, root, func(t *rapid.T, s *site) []candidate {
		var out []candidate
		for _, k := range wrapperKeys {
			k := k
			out = append(out, candidate{build: func() any { return map[string]any{k: tg.Value} },
				text: tg.wrapped(k), path: "", variant: k,
				keywords: structuralKeywords, below: true, reason: because("the arguments nested under %q", k)})
		}
		return out
	})
}

// wrappedHints: a scalar place below the root catches [x] unless it takes arrays too.
func wrappedHints(p *SchemaPlace) []Hint {
	ts := p.Types
	switch {
	case p.Root || ts == nil || ts["object"] || ts["array"]:
		return nil
	case p.May("array"):
		return passing("%s is %s: [x] passes", p.Where, p.Desc)
	}
	return caught("%s is %s: [x] is rejected", p.Where, p.Desc)
}

// wrappedProbe wraps a scalar in an array.
func wrappedProbe(p *Probe) {
	if p.Scalar() {
		p.Put("wrapped", []any{p.X}, "the %s at %s wrapped in an array", p.Type, p.Path)
	}
}

// wrapperHints: a root that is closed or requires properties catches the arguments nested in
// an envelope; an open root that requires nothing lets them through.
func wrapperHints(p *SchemaPlace) []Hint {
	switch o := p.Object; {
	case !p.Root || o == nil:
		return nil
	case o.Closed != "" || len(o.Required) > 0:
		return caught(`the root is closed or requires properties: {"arguments": {...}} is rejected`)
	}
	return passing(`the root is open and requires nothing: {"arguments": {...}} passes`)
}

// wrapperProbe nests the arguments under "arguments".
func wrapperProbe(p *Probe) {
	if len(p.Loc) == 0 {
		p.Put("arguments", map[string]any{"arguments": p.Value}, `the arguments nested under "arguments"`)
	}
}

// wrapped_scalar read backwards: an array of one scalar where the schema does not take an
// array; undone by taking the scalar out.
func (wrappedScalar) undo(r *undoing, s *site) []undo {
	a, ok := s.value.([]any)
	if !ok || len(a) != 1 || s.parent == nil {
		return nil
	}
	switch a[0].(type) {
	case []any, map[string]any:
		return nil
	}
	u := undo{class: WrappedScalar, variant: "wrapped", path: s.path, value: r.replace(s, a[0])}
	if s.takes("array") {
		// Where an array is also taken, [x] is as well an array cut below minItems.
		u.alike = []string{string(OutOfRangeEnum) + ":too-few-items"}
	}
	return []undo{u}
}

// wrapper_nesting read backwards: a root object whose one member, named as the mutator names
// wrappers, holds the arguments; undone by taking them out.
func (wrapperNesting) undo(r *undoing, s *site) []undo {
	obj, ok := s.value.(map[string]any)
	if s.parent != nil || !ok || len(obj) != 1 {
		return nil
	}
	for k, inner := range obj {
		if _, isObj := inner.(map[string]any); isObj && slices.Contains(wrapperKeys, k) {
			u := undo{class: WrapperNesting, variant: k, path: "", value: func() any { return inner }}
			if !s.declared()[k] {
				// Where the arguments may be empty, the wrapper key taken out reads as well.
				v, _ := r.keyVariant(k, s.declared())
				u.alike = []string{string(HallucinatedKey) + ":" + v + "@/" + jsonvalue.EscapeToken(k)}
			}
			return []undo{u}
		}
	}
	return nil
}
