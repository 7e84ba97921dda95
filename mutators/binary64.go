package mutators

import (
	"encoding/json"
	"math"
	"math/big"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// The binary64 rule. JSON Schema judges exact values, but nearly every gate reads JSON numbers
// as IEEE binary64 doubles, and RFC 8259 §6 leaves precision beyond them to implementations. A
// case whose verdict changes when every number in the arguments and in the schema is read as its
// nearest double (judged exactly on those doubles, or with the floating-point division that
// multipleOf checks use) owes no verdict: its expectation is Either.

// doubles is the binary64 reading of one tool's schema.
type doubles struct {
	sensitive bool                  // some keyword compares numbers (bounds, integer, multipleOf, enum, const, uniqueItems)
	oracle    *validator.Gatekeeper // the schema with its numbers rounded to doubles (nil: none or unroundable)
	broken    bool                  // the schema holds a number beyond every double
	multiples []*big.Rat            // every multipleOf of the schema
}

func newDoubles(gk *validator.Gatekeeper) *doubles {
	d := &doubles{}
	schemawalk.Each(gk.Schema(), func(s *jsonschema.Schema) {
		if s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil ||
			s.MultipleOf != nil || s.UniqueItems || s.Enum != nil || s.Const != nil {
			d.sensitive = true
		}
		if s.Types != nil {
			for _, t := range s.Types.ToStrings() {
				if t == "integer" {
					d.sensitive = true
				}
			}
		}
		if s.MultipleOf != nil {
			d.multiples = append(d.multiples, s.MultipleOf)
		}
	})
	if !d.sensitive {
		return d
	}
	doc, err := jsonvalue.Parse(gk.Tool().Parameters)
	if err != nil {
		return d
	}
	rounded, ok := jsonvalue.RoundBinary64(doc)
	if !ok {
		d.broken = true
		return d
	}
	t := gk.Tool()
	t = tool.Tool{Name: t.Name, Description: t.Description, Parameters: jsonvalue.MustMarshal(rounded), Source: t.Source}
	if o, err := validator.Compile(t); err == nil {
		d.oracle = o
	} else {
		d.broken = true // rounding made the schema unusable (a multipleOf of 0, say)
	}
	return d
}

// differ reports whether the verdict on v changes in the binary64 reading; issues are what the
// oracle found in v (none: v is valid).
func (d *doubles) differ(v any, issues []validator.Issue) bool {
	if !d.sensitive {
		return false
	}
	hasNumber := false
	jsonvalue.Numbers(v, func(json.Number) { hasNumber = true })
	if !hasNumber {
		return false
	}
	if d.broken {
		return true
	}
	rounded, ok := jsonvalue.RoundBinary64(v)
	if !ok {
		return true // a number beyond every double
	}
	valid := len(issues) == 0
	if d.oracle != nil && d.oracle.Valid(rounded) != valid {
		return true
	}
	if len(d.multiples) == 0 || (!valid && !mayTurnOnMultiple(issues)) {
		return false
	}
	// Floating-point division can only make a valid value fail multipleOf, or make one that
	// failed only through multipleOf pass.
	differs := false
	jsonvalue.Numbers(v, func(n json.Number) {
		if !differs {
			differs = quotientDiffers(n, d.multiples, valid)
		}
	})
	return differs
}

// mayTurnOnMultiple reports whether some issue may be a multipleOf failure, directly or inside
// a keyword that combines subschemas; an issue of any other keyword stays whatever the
// division says.
func mayTurnOnMultiple(issues []validator.Issue) bool {
	for _, is := range issues {
		switch is.Keyword {
		case "multipleOf", "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "$ref", "$dynamicRef",
			"dependentSchemas", "contains", "items", "prefixItems", "properties", "patternProperties",
			"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "":
			return true
		}
	}
	return false
}

// quotientDiffers reports whether n / m is an integer exactly but not in floating point (when
// valid), or the other way round (when not), for some m: a gate that checks multipleOf by
// dividing doubles reads it so. Every number is tried against every multipleOf of the schema,
// which may mark more cases than needed, never fewer.
func quotientDiffers(n json.Number, ms []*big.Rat, valid bool) bool {
	x, ok := jsonvalue.Rat(n)
	if !ok {
		return true
	}
	fx, _ := x.Float64()
	for _, m := range ms {
		exact := new(big.Rat).Quo(x, m).IsInt()
		fm, _ := m.Float64()
		q := fx / fm
		float := !math.IsInf(q, 0) && !math.IsNaN(q) && q == math.Trunc(q)
		if exact == valid && float != exact {
			return true
		}
	}
	return false
}
