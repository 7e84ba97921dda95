package oracle

import (
	"encoding/json"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// The readings of a schema with multipleOf, beside the doubles judged exactly (the rounded
// oracle) and the mixed reading: gates that read numbers as doubles divide them in one of a few
// ways, and each is a reading a correct gate may have, judged on the whole value.
//
//   - Floating point: the two doubles divided, the quotient a whole number (Ajv,
//     jsonschema-go). 1000000000000000.001 breaks a maximum of 1e15 exactly; as a double it
//     is 1e15, within the maximum, and 1e15/0.001 is 1e18: such a gate accepts it.
//   - Decimals: each double written as its shortest decimal, and judged exactly (gates that
//     divide decimals to avoid floating-point error). 9999999999999999 is 1e16 so; 490 is a
//     multiple of 0.07.
//   - Python (python-jsonschema on json.loads): integer literals exact, other numbers doubles;
//     a multipleOf written as an integer divides exactly (a remainder), one written otherwise
//     in floating point, and exactly again where that quotient overflows. One value can meet
//     both ways: 7e22 is no multiple of 7 by remainder, but 7e22/0.1 is whole.
//   - The mixed reading divided in floating point everywhere.

// divisionsDiffer reports whether v (valid: the exact verdict; rounded: v read as doubles, as
// differ made it) gets another verdict in one of those readings. Not called for a value that
// holds as doubles (holdsAsDoubles): no reading of its numbers turns it.
func (d *doubles) divisionsDiffer(v, rounded any, valid bool) bool {
	d.divOnce.Do(d.compileDivisions)
	if d.floatOracle == nil || d.shortestOracle == nil || d.pythonOracle == nil || d.mixedFloatOracle == nil {
		return true // the schema cannot be read so: no verdict holds
	}
	if d.floatOracle.Valid(rounded) != valid {
		return true
	}
	short, changed, ok := jsonvalue.Round(v, jsonvalue.Shortest64)
	if !ok {
		return true
	}
	if (changed || d.shortestOracle != d.o.exact) && d.shortestOracle.Valid(short) != valid {
		return true
	}
	mixed, _, ok := jsonvalue.Round(v, mixed64)
	return !ok || d.pythonOracle.Valid(mixed) != valid || d.mixedFloatOracle.Valid(mixed) != valid
}

// compileDivisions compiles the oracles of divisionsDiffer; one left nil cannot be read so.
func (d *doubles) compileDivisions() {
	d.floatOracle = d.division(d.round, nil, false)
	d.pythonOracle = d.division(mixed64, func(n json.Number) bool { return !integerLiteral(string(n)) }, true)
	d.mixedFloatOracle = d.division(mixed64, nil, false)
	d.shortestOracle = d.readAs(jsonvalue.Shortest64)
}

// division is the reading with numbers read by round (nil: as written) and the multipleOf
// values float picks (nil: all) divided in floating point (MarkFloatDivisions, FloatDivision);
// nil when the schema cannot be read so.
func (d *doubles) division(round func(json.Number) (json.Number, bool), float func(json.Number) bool,
	exactOnOverflow bool) *Gatekeeper {
	shared, err := d.params()
	if err != nil {
		return nil
	}
	// Marked as written, then read: the literal says how Python divides. A schema whose
	// references reach into data cannot be marked whole: no verdict is owed there. The marks
	// go on a copy: the parsed document is every reading's.
	doc := jsonvalue.MustClone(shared)
	if !MarkFloatDivisions(doc, float) {
		return nil
	}
	if round != nil {
		var ok bool
		if doc, _, ok = jsonvalue.Round(doc, round); !ok {
			return nil
		}
	}
	kind := int8(1)
	if exactOnOverflow {
		kind = 2
	}
	return d.o.readAs(jsonvalue.MustMarshal(doc), kind)
}
