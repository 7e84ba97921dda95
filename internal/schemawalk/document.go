package schemawalk

import (
	"maps"
	"slices"
	"strconv"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// IsNameMap reports whether the value of the keyword k maps names (of properties, patterns,
// definitions) to schemas: its keys are names, not keywords.
func IsNameMap(k string) bool {
	switch k {
	case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
		return true
	}
	return false
}

// IsData reports whether the value of the keyword k is data, not schemas.
func IsData(k string) bool {
	switch k {
	case "enum", "const", "default", "examples":
		return true
	}
	return false
}

// Keywords walks the schema document doc (JSON as jsonvalue.Parse or encoding/json gives it) and
// calls fn for each member of each schema object, keys sorted, with the member's JSON Pointer:
// the keys of properties, $defs and the other name maps are names and their values schemas; the
// values of enum, const, default and examples are data and are not entered. fn sees a member
// before what is below it, may change obj, and stops the walk by returning false.
func Keywords(doc any, fn func(obj map[string]any, key string, value any, at string) bool) {
	keywords(doc, "", false, fn)
}

func keywords(v any, at string, names bool, fn func(map[string]any, string, any, string) bool) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e := x[k]
			p := at + "/" + jsonvalue.EscapeToken(k)
			if names {
				if !keywords(e, p, false, fn) {
					return false
				}
				continue
			}
			if !fn(x, k, e, p) {
				return false
			}
			if !IsData(k) && !keywords(e, p, IsNameMap(k), fn) {
				return false
			}
		}
	case []any:
		for i, e := range x {
			if !keywords(e, at+"/"+strconv.Itoa(i), false, fn) {
				return false
			}
		}
	}
	return true
}
