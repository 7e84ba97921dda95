package mutators

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
)

// The distortion classes. The four classic names are fixed.
const (
	StringifiedType   corpus.Class = "stringified_type"
	FlattenedArray    corpus.Class = "flattened_array"
	HallucinatedKey   corpus.Class = "hallucinated_key"
	OutOfRangeEnum    corpus.Class = "out_of_range_enum"
	MissingRequired   corpus.Class = "missing_required"
	NullValue         corpus.Class = "null_value"
	WrongType         corpus.Class = "wrong_type"
	JSONInString      corpus.Class = "json_in_string"
	WrappedScalar     corpus.Class = "wrapped_scalar"
	WrapperNesting    corpus.Class = "wrapper_nesting"
	RootNotObject     corpus.Class = "root_not_object"
	MalformedJSON     corpus.Class = "malformed_json"
	ImplementationDef corpus.Class = "implementation_defined"
)

// A Mutator draws one distortion of a target.
type Mutator interface {
	Class() corpus.Class
	// Mutate draws a distortion of tg: a case with the argument text, class, variant, place,
	// scope, keyword, reason, canary and the verdict owed (the caller names the tool). ok is
	// false when the class applies nowhere in this value (no place to distort, or the oracle
	// accepts every candidate: the schema lets it through).
	Mutate(t *rapid.T, tg *Target) (m corpus.Case, ok bool)
}

// All returns every mutator, classic classes first.
func All() []Mutator {
	return []Mutator{stringified{}, flattened{}, hallucinated{}, outOfRange{}, missing{}, nullValue{},
		wrongType{}, jsonInString{}, wrappedScalar{}, wrapperNesting{}, rootNotObject{}, malformed{},
		implementationDefined{}}
}

// Classes lists the class names of All, in order.
func Classes() []corpus.Class {
	var out []corpus.Class
	for _, m := range All() {
		out = append(out, m.Class())
	}
	return out
}

// Select returns the mutators named in a comma-separated list ("" or "all": every one).
func Select(list string) ([]Mutator, error) {
	if list == "" || list == "all" {
		return All(), nil
	}
	var out []Mutator
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, m := range All() {
			if string(m.Class()) == name {
				out = append(out, m)
				found = true
			}
		}
		if !found {
			var names []string
			for _, c := range Classes() {
				names = append(names, string(c))
			}
			return nil, fmt.Errorf("unknown mutator %q (known: %s)", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}
