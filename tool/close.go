package tool

import (
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// Close returns t with every object schema that does not say otherwise made closed, as OpenAI's
// strict mode does: a schema with "properties" or "type":"object" and none of
// additionalProperties, unevaluatedProperties or patternProperties gets
// "additionalProperties": false. Members of an allOf are left open, since closing each part of a
// conjunction would forbid the properties the other parts declare.
func Close(t Tool) Tool {
	v, err := jsonvalue.Parse(t.Parameters)
	if err != nil {
		return t
	}
	closeSchema(v, false)
	t.Parameters = jsonvalue.MustMarshal(v)
	return t
}

// keywords whose values are schemas, maps of schemas, or arrays of schemas.
var (
	schemaKeywords = []string{"additionalProperties", "unevaluatedProperties", "items",
		"additionalItems", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then",
		"else", "contentSchema"}
	schemaMapKeywords   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaArrayKeywords = []string{"anyOf", "oneOf", "prefixItems", "items"}
)

func closeSchema(v any, inAllOf bool) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	_, hasProps := s["properties"]
	isObject := hasProps
	switch ty := s["type"].(type) {
	case string:
		isObject = isObject || ty == "object"
	case []any:
		for _, e := range ty {
			if e == "object" {
				isObject = true
			}
		}
	}
	_, ap := s["additionalProperties"]
	_, up := s["unevaluatedProperties"]
	_, pp := s["patternProperties"]
	if isObject && !inAllOf && !ap && !up && !pp {
		s["additionalProperties"] = false
	}
	for _, k := range schemaKeywords {
		if sub, ok := s[k].(map[string]any); ok {
			closeSchema(sub, false)
		}
	}
	for _, k := range schemaMapKeywords {
		if m, ok := s[k].(map[string]any); ok {
			for _, sub := range m {
				closeSchema(sub, false)
			}
		}
	}
	for _, k := range schemaArrayKeywords {
		if a, ok := s[k].([]any); ok {
			for _, sub := range a {
				closeSchema(sub, false)
			}
		}
	}
	if a, ok := s["allOf"].([]any); ok {
		for _, sub := range a {
			closeSchema(sub, true)
		}
	}
	if m, ok := s["dependencies"].(map[string]any); ok {
		for _, sub := range m {
			closeSchema(sub, false)
		}
	}
}
