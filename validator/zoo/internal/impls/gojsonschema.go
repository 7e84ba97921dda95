package impls

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/xeipuuv/gojsonschema"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

// gojsonschema supports drafts 4, 6 and 7 only. The loader is left in its
// default "Hybrid" mode with $schema auto-detection: a draft-04/06/07 $schema
// selects that draft, anything else (2020-12 included) gets the hybrid
// keyword set, the closest it has to 2020-12. $defs is not a keyword for it,
// but "#/$defs/x" references still resolve as plain JSON Pointers.
var goJSONSchema = server.Impl{
	Name:        "gojsonschema",
	Description: "github.com/xeipuuv/gojsonschema (drafts 4/6/7 + hybrid; no 2020-12)",
	Module:      "github.com/xeipuuv/gojsonschema",
	Version:     "v1.2.0",
	Compile: compiled(func(schema json.RawMessage) (*gojsonschema.Schema, error) {
		return gojsonschema.NewSchemaLoader().Compile(gojsonschema.NewBytesLoader(schema))
	}, validateGoJSONSchema),
}

func validateGoJSONSchema(s *gojsonschema.Schema, raw []byte) (server.Verdict, error) {
	res, err := s.Validate(gojsonschema.NewBytesLoader(raw))
	if err != nil {
		// Not a verdict: the loader failed on input that passed the gate.
		return server.Verdict{}, fmt.Errorf("gojsonschema could not load the arguments: %s", errorKind(err))
	}
	if res.Valid() {
		return server.Verdict{Valid: true}, nil
	}
	var issues []server.Issue
	for _, e := range res.Errors() {
		issues = append(issues, goJSONSchemaIssue(e))
	}
	return rejected(issues), nil
}

// goJSONSchemaKeywords maps gojsonschema's error types to schema keywords.
var goJSONSchemaKeywords = map[string]string{
	"false":                           "false",
	"required":                        "required",
	"invalid_type":                    "type",
	"number_any_of":                   "anyOf",
	"number_one_of":                   "oneOf",
	"number_all_of":                   "allOf",
	"number_not":                      "not",
	"missing_dependency":              "dependencies",
	"const":                           "const",
	"enum":                            "enum",
	"array_no_additional_items":       "additionalItems",
	"array_min_items":                 "minItems",
	"array_max_items":                 "maxItems",
	"unique":                          "uniqueItems",
	"contains":                        "contains",
	"array_min_properties":            "minProperties",
	"array_max_properties":            "maxProperties",
	"additional_property_not_allowed": "additionalProperties",
	"invalid_property_pattern":        "patternProperties",
	"invalid_property_name":           "propertyNames",
	"string_gte":                      "minLength",
	"string_lte":                      "maxLength",
	"pattern":                         "pattern",
	"format":                          "format",
	"multiple_of":                     "multipleOf",
	"number_gte":                      "minimum",
	"number_gt":                       "exclusiveMinimum",
	"number_lte":                      "maximum",
	"number_lt":                       "exclusiveMaximum",
	"condition_then":                  "then",
	"condition_else":                  "else",
}

// goJSONSchemaSafeDetails lists the error details that come from the schema
// (or name a JSON type), never from the arguments. Everything else, and the
// library's own description (which can quote values or property names taken
// from the arguments), is left out of messages.
var goJSONSchemaSafeDetails = []string{"expected", "given", "min", "max", "multiple", "format", "pattern",
	"property", "dependency"}

func goJSONSchemaIssue(e gojsonschema.ResultError) server.Issue {
	typ := e.Type()
	path := goJSONContextPointer(e.Context())
	details := e.Details()
	var parts []string
	for _, k := range goJSONSchemaSafeDetails {
		if k == "property" && typ != "required" {
			continue // additional_property_not_allowed / invalid_property_name: the name comes from the arguments
		}
		if val, ok := details[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %v", k, val))
		}
	}
	switch typ {
	case "required":
		if p, ok := details["property"].(string); ok {
			path = server.Child(path, p)
		}
	case "missing_dependency":
		if p, ok := details["dependency"].(string); ok {
			path = server.Child(path, p)
		}
	}
	msg := "gojsonschema " + typ
	if len(parts) > 0 {
		msg += " (" + strings.Join(parts, ", ") + ")"
	}
	return server.Issue{Path: path, Message: msg, Keyword: goJSONSchemaKeywords[typ]}
}

// goJSONContextPointer turns gojsonschema's JsonContext (a linked list of
// unescaped path elements, head = innermost, the outermost being "(root)")
// into a JSON Pointer. The list's fields are unexported and its String method
// joins with "." without escaping, which is ambiguous for keys containing
// dots; so the fields are read with reflect (reading, unlike setting,
// unexported fields is allowed).
func goJSONContextPointer(c *gojsonschema.JsonContext) string {
	var rev []string
	v := reflect.ValueOf(c)
	for v.IsValid() && v.Kind() == reflect.Pointer && !v.IsNil() {
		e := v.Elem()
		head := e.FieldByName("head")
		tail := e.FieldByName("tail")
		if !head.IsValid() || head.Kind() != reflect.String || !tail.IsValid() {
			// Layout changed: fall back to the ambiguous dotted form.
			return fallbackContextPointer(c)
		}
		rev = append(rev, head.String())
		v = tail
	}
	if len(rev) == 0 {
		return ""
	}
	// The last element collected is the outermost: "(root)".
	rev = rev[:len(rev)-1]
	tokens := make([]string, len(rev))
	for i := range rev {
		tokens[i] = rev[len(rev)-1-i]
	}
	return server.Pointer(tokens...)
}

func fallbackContextPointer(c *gojsonschema.JsonContext) string {
	s := strings.TrimPrefix(c.String("\x00"), "(root)")
	if s == "" {
		return ""
	}
	return server.Pointer(strings.Split(strings.TrimPrefix(s, "\x00"), "\x00")...)
}
