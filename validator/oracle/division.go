package oracle

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

// FloatMultipleOf is the name MarkFloatDivisions gives a multipleOf that divides in floating
// point. The schema validator ignores it; Compile with FloatDivision judges it.
const FloatMultipleOf = "x-toolproof-float-multipleOf"

// MarkFloatDivisions renames, in the schema document doc (as jsonvalue.Parse gives it), every
// multipleOf for whose value, as written, float reports true (every one when float is nil) to
// FloatMultipleOf. Values of enum, const, default and examples are data and are left alone; it
// reports false when a reference points into such data (a schema there would keep its exact
// multipleOf). The binary64 rule reads a schema with it as gates that read numbers as doubles do.
func MarkFloatDivisions(doc any, float func(divisor json.Number) bool) (complete bool) {
	schemawalk.Keywords(doc, func(obj map[string]any, k string, v any, _ *schemawalk.Path) bool {
		if n, ok := v.(json.Number); ok && k == "multipleOf" && (float == nil || float(n)) {
			delete(obj, k)
			obj[FloatMultipleOf] = n
		}
		return true
	})
	return !refersIntoData(doc)
}

// refersIntoData reports whether some $ref, $dynamicRef or $recursiveRef of doc has a JSON
// Pointer fragment that passes through enum, const, default or examples in keyword position.
func refersIntoData(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && (k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef") {
				if _, frag, found := strings.Cut(s, "#"); found && pointsIntoData(frag) {
					return true
				}
			}
			if refersIntoData(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if refersIntoData(e) {
				return true
			}
		}
	}
	return false
}

// pointsIntoData reports whether the JSON Pointer ptr, read from a schema, passes through enum,
// const, default or examples where a keyword stands (not a property or definition name).
func pointsIntoData(ptr string) bool {
	if !strings.HasPrefix(ptr, "/") {
		return false // an anchor, or the whole document
	}
	names := false
	for _, seg := range strings.Split(ptr[1:], "/") {
		if names {
			names = false
			continue
		}
		if schemawalk.IsData(seg) {
			return true
		}
		names = schemawalk.IsNameMap(seg)
	}
	return false
}

// FloatDivision judges each FloatMultipleOf (MarkFloatDivisions) as a gate that reads numbers as
// IEEE doubles does: the value read as a double, divided in floating point by the double nearest
// the divisor, must give a whole number (1000000000000000.0005 is a multiple of 0.001 so; 0.07
// is none of 0.01). With exactOnOverflow, a quotient beyond every double is judged exactly
// instead, as python-jsonschema does; else it fails, as Ajv and jsonschema-go do.
func FloatDivision(exactOnOverflow bool) CompileOption {
	return func(c *compileConfig) { c.division = &floatDivision{exactOnOverflow: exactOnOverflow} }
}

type floatDivision struct{ exactOnOverflow bool }

func (f *floatDivision) vocabulary() *jsonschema.Vocabulary {
	return &jsonschema.Vocabulary{
		URL: "urn:toolproof:float-division",
		Compile: func(_ *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
			n, ok := obj[FloatMultipleOf].(json.Number)
			if !ok {
				return nil, nil
			}
			want, ok := jsonvalue.Rat(n)
			if !ok || want.Sign() <= 0 {
				return nil, fmt.Errorf("%s must be a number above 0, not %s", FloatMultipleOf, n)
			}
			m, _ := want.Float64()
			return floatMultiple{want: want, m: m, exactOnOverflow: f.exactOnOverflow}, nil
		},
	}
}

// floatMultiple is a multipleOf judged in floating point.
type floatMultiple struct {
	want            *big.Rat // the divisor, for the error
	m               float64  // the double nearest it
	exactOnOverflow bool
}

// Validate fails v, a number, unless v read as a double, divided by m in floating point, is a
// whole number.
func (f floatMultiple) Validate(ctx *jsonschema.ValidatorContext, v any) {
	n, ok := v.(json.Number)
	if !ok {
		return // not a number (the oracle parses every number as json.Number)
	}
	x, _ := strconv.ParseFloat(string(n), 64) // the nearest double, ±Inf beyond them all
	q := x / f.m
	whole := !math.IsInf(q, 0) && !math.IsNaN(q) && q == math.Trunc(q)
	if math.IsInf(q, 0) && !math.IsInf(x, 0) && f.exactOnOverflow {
		// python-jsonschema falls back to Fractions: the value as given (an integer exactly, a
		// double as its exact value) divided exactly by the double divisor.
		xr, ok := jsonvalue.Rat(n)
		mr := new(big.Rat).SetFloat64(f.m)
		whole = ok && mr != nil && new(big.Rat).Quo(xr, mr).IsInt()
	}
	if !whole {
		got, _ := jsonvalue.Rat(n)
		ctx.AddError(&kind.MultipleOf{Got: got, Want: f.want})
	}
}
