package tool

import (
	"reflect"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// Close returns t with every object schema that does not say otherwise made closed, as OpenAI's
// strict mode does. A schema says otherwise with additionalProperties, unevaluatedProperties or
// patternProperties. An object schema closes with "additionalProperties": false, unless parts of
// it that apply to the same object (allOf, anyOf, oneOf, if/then/else, dependentSchemas, an
// in-place $ref) declare properties of their own: those would all be "additional" to it, so it
// closes with "unevaluatedProperties": false instead (draft 2019-09 and later; a draft-07 schema
// like that is left open). The in-place parts themselves are not closed: the object they belong
// to is, once, as a whole.
func Close(t Tool) Tool {
	v, err := jsonvalue.Parse(t.Parameters)
	if err != nil {
		return t
	}
	root, ok := v.(map[string]any)
	if !ok {
		return t
	}
	modern := true
	if s, ok := root["$schema"].(string); ok && !strings.Contains(s, "2019-09") && !strings.Contains(s, "2020-12") {
		modern = false
	}
	c := closer{root: root, modern: modern}
	c.schema(root, true)
	t.Parameters = jsonvalue.MustMarshal(root)
	return t
}

type closer struct {
	root   map[string]any
	modern bool
}

// Keywords by how their schemas apply: to the same instance, or to children of it.
var (
	inPlaceSingle = []string{"not", "if", "then", "else"}
	inPlaceArrays = []string{"allOf", "anyOf", "oneOf"}
	childSingle   = []string{"additionalProperties", "unevaluatedProperties", "items", "additionalItems",
		"unevaluatedItems", "contains", "propertyNames", "contentSchema"}
	childMaps   = []string{"properties", "patternProperties"}
	childArrays = []string{"prefixItems", "items"}
	defMaps     = []string{"$defs", "definitions"}
)

// schema closes s if closable (an object schema the caller does not merge into another), then
// walks its subschemas: children are closable, in-place parts are not.
func (c *closer) schema(v any, closable bool) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	if closable && isObjectSchema(s) {
		c.close(s)
	}
	for _, k := range childSingle {
		if sub, ok := s[k].(map[string]any); ok {
			c.schema(sub, true)
		}
	}
	for _, k := range childMaps {
		if m, ok := s[k].(map[string]any); ok {
			for _, sub := range m {
				c.schema(sub, true)
			}
		}
	}
	for _, k := range childArrays {
		if a, ok := s[k].([]any); ok {
			for _, sub := range a {
				c.schema(sub, true)
			}
		}
	}
	c.inPlace(s)
	// Definitions are closed where they are used as children (a $ref under properties or
	// items); one used in place of an object is part of that object, like an allOf member.
	for _, k := range defMaps {
		if m, ok := s[k].(map[string]any); ok {
			for _, sub := range m {
				c.schema(sub, !c.usedInPlace(sub))
			}
		}
	}
}

// close closes an object schema that says nothing of other keys: additionalProperties: false,
// or unevaluatedProperties: false (a draft that has it) when its in-place parts declare keys.
func (c *closer) close(s map[string]any) {
	_, ap := s["additionalProperties"]
	_, up := s["unevaluatedProperties"]
	_, pp := s["patternProperties"]
	if !ap && !up && !pp {
		switch {
		case !c.inPlaceDeclares(s, 0):
			s["additionalProperties"] = false
		case c.modern:
			s["unevaluatedProperties"] = false
		}
	}
}

// inPlace walks the parts of s that apply to the same value (allOf, anyOf, if, then,
// dependentSchemas...): not closable, they are part of the object around them.
func (c *closer) inPlace(s map[string]any) {
	for _, k := range inPlaceSingle {
		c.schema(s[k], false)
	}
	for _, k := range inPlaceArrays {
		if a, ok := s[k].([]any); ok {
			for _, sub := range a {
				c.schema(sub, false)
			}
		}
	}
	if m, ok := s["dependentSchemas"].(map[string]any); ok {
		for _, sub := range m {
			c.schema(sub, false)
		}
	}
	if m, ok := s["dependencies"].(map[string]any); ok {
		for _, sub := range m {
			c.schema(sub, false)
		}
	}
}

func isObjectSchema(s map[string]any) bool {
	if _, ok := s["properties"]; ok {
		return true
	}
	switch ty := s["type"].(type) {
	case string:
		return ty == "object"
	case []any:
		for _, e := range ty {
			if e == "object" {
				return true
			}
		}
	}
	return false
}

// inPlaceDeclares reports whether a part of s that applies to the same object declares
// properties (or pattern properties).
func (c *closer) inPlaceDeclares(s map[string]any, depth int) bool {
	if depth > 16 {
		return false
	}
	declares := func(v any) bool {
		sub, ok := v.(map[string]any)
		if !ok {
			return false
		}
		_, p := sub["properties"]
		_, pp := sub["patternProperties"]
		return p || pp || c.inPlaceDeclares(sub, depth+1)
	}
	for _, k := range inPlaceSingle {
		if declares(s[k]) {
			return true
		}
	}
	for _, k := range inPlaceArrays {
		if a, ok := s[k].([]any); ok {
			for _, sub := range a {
				if declares(sub) {
					return true
				}
			}
		}
	}
	for _, k := range []string{"dependentSchemas", "dependencies"} {
		if m, ok := s[k].(map[string]any); ok {
			for _, sub := range m {
				if declares(sub) {
					return true
				}
			}
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		if target := c.resolve(ref); target != nil && declares(target) {
			return true
		}
	}
	return false
}

// resolve finds a local $ref target ("#/$defs/x" and the like).
func (c *closer) resolve(ref string) any {
	if !strings.HasPrefix(ref, "#") {
		return nil
	}
	v, ok := jsonvalue.Get(c.root, strings.TrimPrefix(ref, "#"))
	if !ok {
		return nil
	}
	return v
}

// usedInPlace reports whether some schema refers to def with a $ref next to keywords of its own
// (so def is merged into an object rather than being one).
func (c *closer) usedInPlace(def any) bool {
	found := false
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok && len(x) > 1 && sameNode(c.resolve(ref), def) {
				_, p := x["properties"]
				_, ty := x["type"]
				if p || ty || x["allOf"] != nil || x["anyOf"] != nil || x["oneOf"] != nil {
					found = true
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(c.root)
	return found
}

func sameNode(a, b any) bool {
	ma, ok1 := a.(map[string]any)
	mb, ok2 := b.(map[string]any)
	if !ok1 || !ok2 {
		return false
	}
	// Maps are reference types: the same definition is the same map.
	return mapID(ma) == mapID(mb)
}

func mapID(m map[string]any) uintptr { return reflect.ValueOf(m).Pointer() }
