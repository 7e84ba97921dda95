package oracle

import (
	"fmt"
	"maps"
	"sync"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/tool"
)

// CompileUnbudgeted compiles the parameters params as Compile does, without its budgets: for the
// benchmark of a compile beyond MaxSubschemas.
func CompileUnbudgeted(params []byte) error {
	doc, err := jsonvalue.Parse(params)
	if err != nil {
		return err
	}
	_, err = compileDocument(doc, SchemaURL+"wide.json", compileConfig{})
	return err
}

// Subschemas is subschemas, for the budget's tests.
var Subschemas = subschemas

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

// CountCompiles makes every Compile until stop is called add one to the count of its reading:
// the tool's name, its parameters and how it is compiled (lax: formats as annotations; float:
// multipleOf in floating point). Not safe to use from parallel tests.
func CountCompiles() (counts func() map[string]int, stop func()) {
	var mu sync.Mutex
	n := map[string]int{}
	compileHook = func(t tool.Tool, conf compileConfig) {
		k := fmt.Sprintf("%s %s lax=%v", t.Name, t.Parameters, conf.formatAnnotation)
		if conf.division != nil {
			k += fmt.Sprintf(" float(exactOnOverflow=%v)", conf.division.exactOnOverflow)
		}
		mu.Lock()
		n[k]++
		mu.Unlock()
	}
	return func() map[string]int {
			mu.Lock()
			defer mu.Unlock()
			return maps.Clone(n)
		}, func() {
			compileHook = nil
		}
}
