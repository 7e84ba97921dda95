package validator

import "github.com/toolproof/toolproof/internal/jsonvalue"

// HoldsAsDoubles is holdsAsDoubles, for the binary64 tests.
var HoldsAsDoubles = holdsAsDoubles

// ValidAsDoubles reports whether w, its numbers read as doubles, is valid against the schema
// read so (false when either cannot be read).
func (o *Oracle) ValidAsDoubles(w any) bool {
	d := o.binary64()
	r := d.roundedOracle()
	rw, _, ok := jsonvalue.Round(w, d.round)
	return r != nil && ok && r.Valid(rw)
}

// ValidMixed is ValidAsDoubles for the mixed reading.
func (o *Oracle) ValidMixed(w any) bool {
	r := o.binary64().mixed()
	rw, _, ok := jsonvalue.Round(w, mixed64)
	return r != nil && ok && r.Valid(rw)
}
