package oracle

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/schemawalk"
)

// MaxEvaluations is the most subschemas one value may be checked against at one place in it:
// the schemas a validation evaluates there through $ref, allOf, anyOf, oneOf, not,
// if/then/else and dependent schemas, each counted as often as it is reached. A tool beyond it
// (a 2 KB schema whose $refs fan out in 20 levels reaches millions) is refused by Compile,
// since every value the oracle judges would cost that much; the count is of the schema, never
// of time, so the same tool is refused on every machine.
const MaxEvaluations = 10000

// evaluationsFit returns an error naming a schema of root whose evaluations in place come to
// more than MaxEvaluations, or nil when every one fits.
func evaluationsFit(root *jsonschema.Schema) error {
	memo := map[*jsonschema.Schema]int{}
	var worst *jsonschema.Schema
	schemawalk.Each(root, func(s *jsonschema.Schema) { inPlace(s, memo, map[*jsonschema.Schema]bool{}) })
	// The schema named is one beyond the budget whose own applicators all fit: where the
	// fan-out is.
	schemawalk.Each(root, func(s *jsonschema.Schema) {
		if memo[s] <= MaxEvaluations || (worst != nil && worst.Location < s.Location) {
			return
		}
		for _, c := range inPlaceChildren(s) {
			if c != nil && memo[c] > MaxEvaluations {
				return
			}
		}
		worst = s
	})
	if worst == nil {
		return nil
	}
	return fmt.Errorf("a value at %s is checked against more than %d subschemas in place "+
		"($ref, allOf, anyOf, oneOf and the like, each counted as often as it is reached): "+
		"beyond the oracle's budget (oracle.MaxEvaluations)", worst.Location, MaxEvaluations)
}

// inPlace counts the schemas a validation evaluates at one place of the value from s: s and,
// each as often as it is reached, the schemas its applicators lead to without moving into the
// value. The count stops just past MaxEvaluations; a loop (refused elsewhere) counts once.
func inPlace(s *jsonschema.Schema, memo map[*jsonschema.Schema]int, visiting map[*jsonschema.Schema]bool) int {
	if s == nil || visiting[s] {
		return 0
	}
	if n, ok := memo[s]; ok {
		return n
	}
	visiting[s] = true
	defer delete(visiting, s)
	n := 1
	add := func(c *jsonschema.Schema) {
		if n <= MaxEvaluations {
			n = min(n+inPlace(c, memo, visiting), MaxEvaluations+1)
		}
	}
	for _, c := range inPlaceChildren(s) {
		add(c)
	}
	memo[s] = n
	return n
}

// inPlaceChildren are the schemas s applies to the value where s itself applies.
func inPlaceChildren(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else}
	if s.DynamicRef != nil {
		out = append(out, s.DynamicRef.Ref)
	}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	for _, c := range s.DependentSchemas {
		out = append(out, c)
	}
	for _, d := range s.Dependencies {
		if c, ok := d.(*jsonschema.Schema); ok {
			out = append(out, c)
		}
	}
	return out
}
