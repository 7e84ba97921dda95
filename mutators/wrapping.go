package mutators

import (
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// wrapped_scalar: x written as [x]; wrapper_nesting: the arguments nested in an envelope,
// {"arguments": {...}}.

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
		return []candidate{{build: at(tg, s, []any{s.value}), replaces: s, with: []any{s.value}, path: s.path, variant: "wrapped",
			keywords: typeKeywords, reason: because("the %s at %s wrapped in an array", jsonvalue.TypeName(s.value), s.path)}}
	})
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
			out = append(out, candidate{build: func() any { return map[string]any{k: tg.Value} }, text: tg.wrapped(k), path: "", variant: k,
				keywords: structuralKeywords, below: true, reason: because("the arguments nested under %q", k)})
		}
		return out
	})
}
