package schemawalk

import (
	"maps"
	"slices"
	"strconv"
	"strings"

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

// Path is the JSON Pointer of a member met by Keywords, built only when asked for (String):
// the walk itself costs no pointer text, so a document nested thousands of levels deep with
// long names costs memory in proportion to its size, not to the square of its depth.
type Path struct {
	parent *Path
	token  string // unescaped
}

// String is the JSON Pointer ("" for the root).
func (p *Path) String() string {
	var toks []string
	for q := p; q != nil; q = q.parent {
		toks = append(toks, q.token)
	}
	var b strings.Builder
	for i := len(toks) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(jsonvalue.EscapeToken(toks[i]))
	}
	return b.String()
}

// Keywords walks the schema document doc (JSON as jsonvalue.Parse or encoding/json gives it) and
// calls fn for each member of each schema object, keys sorted, with the member's JSON Pointer:
// the keys of properties, $defs and the other name maps are names and their values schemas; the
// values of enum, const, default and examples are data and are not entered. fn sees a member
// before what is below it, may change obj, and stops the walk by returning false.
func Keywords(doc any, fn func(obj map[string]any, key string, value any, at *Path) bool) {
	keywords(doc, nil, false, fn)
}

func keywords(v any, at *Path, names bool, fn func(map[string]any, string, any, *Path) bool) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			e := x[k]
			p := &Path{parent: at, token: k}
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
			if !keywords(e, &Path{parent: at, token: strconv.Itoa(i)}, false, fn) {
				return false
			}
		}
	}
	return true
}
