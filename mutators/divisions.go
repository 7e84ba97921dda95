package mutators

import (
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// The readings of a schema with multipleOf, beside the doubles judged exactly (the rounded
// oracle) and the mixed reading: gates that read numbers as doubles divide them in one of two
// ways, and each is a reading a correct gate may have.
//
//   - Floating point: the two doubles divided, the quotient a whole number (Ajv,
//     jsonschema-go, python-jsonschema for a float divisor).
//     1000000000000000.001 breaks a maximum of 1e15 exactly; as a double it is 1e15, within the
//     maximum, and 1e15/0.001 is 1e18: such a gate accepts it.
//   - Decimals: each double written as its shortest decimal, and judged exactly (gates that
//     divide decimals to avoid floating-point error). 9999999999999999 is 1e16 so; 490 is a
//     multiple of 0.07.
//
// The mixed reading (integer literals exact) is also divided in floating point, as Python does
// for a float divisor.

// divisionsDiffer reports whether v (valid: the exact verdict; rounded: v read as doubles, as
// differ made it) gets another verdict in one of those readings. Not called for a value that
// holds as doubles (holdsAsDoubles): no reading of its numbers turns it.
func (d *doubles) divisionsDiffer(v, rounded any, valid, mixed bool) bool {
	d.divOnce.Do(d.compileDivisions)
	if d.floatOracle == nil || d.shortestOracle == nil {
		return true // the schema cannot be read so: no verdict holds
	}
	if d.floatOracle.Valid(rounded) != valid {
		return true
	}
	short, changed, ok := jsonvalue.Round(v, jsonvalue.Shortest64)
	if !ok {
		return true
	}
	if (changed || !d.shortestExact) && d.shortestOracle.Valid(short) != valid {
		return true
	}
	if mixed {
		m := d.mixed()
		if m == nil || d.mixedFloatOracle == nil {
			return true
		}
		mv, _, ok := jsonvalue.Round(v, mixed64)
		if !ok || d.mixedFloatOracle.Valid(mv) != valid {
			return true
		}
	}
	return false
}

// compileDivisions compiles the oracles of divisionsDiffer; one left nil cannot be read so.
func (d *doubles) compileDivisions() {
	asDoubles := d.tool
	if !d.exact {
		asDoubles = d.rounded
	}
	d.floatOracle, _ = validator.Compile(asDoubles, validator.FloatDivision())
	doc, err := jsonvalue.Parse(d.tool.Parameters)
	if err != nil {
		return
	}
	if short, changed, ok := jsonvalue.Round(doc, jsonvalue.Shortest64); ok {
		d.shortestExact = !changed
		t := d.tool
		t.Parameters = jsonvalue.MustMarshal(short)
		d.shortestOracle, _ = validator.Compile(t)
	}
	if d.mixed() != nil {
		d.mixedFloatOracle, _ = validator.Compile(d.mixedTool, validator.FloatDivision())
	}
}
