package impls

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

// jsonschema-go (Google's, used by the official MCP Go SDK) supports draft-07
// and draft 2020-12 (the default without $schema). It validates Go values,
// not JSON text: the arguments are decoded with encoding/json into `any`
// (numbers become float64), which is what the MCP SDK does.
//
// It stops at the first failure and reports it as one error string that
// names the SCHEMA locations it went through ("validating root: validating
// /properties/limit: type: ..."), never the instance location. The instance
// path is reconstructed here from that chain of schema locations (a
// "properties/NAME" step is instance step NAME, a "prefixItems/I" step is
// index I, allOf/anyOf/oneOf/not/if/then/else/$ref keep the location). Steps
// whose instance location is not determined by the schema location (items,
// additionalProperties, patternProperties, contains, ...) cut the path
// there: the issue is then reported at the enclosing array or object.
var jsonSchemaGo = server.Impl{
	Name:        "jsonschema-go",
	Description: "github.com/google/jsonschema-go (draft-07, 2020-12; first error only; used by the MCP Go SDK)",
	Module:      "github.com/google/jsonschema-go",
	Version:     "v0.4.3",
	Compile:     compiled(compileJSONSchemaGo, (*jsonSchemaGoSchema).validate),
}

// jsonSchemaGoSchema is a tool's schema compiled by jsonschema-go.
type jsonSchemaGoSchema struct {
	resolved *jsonschema.Resolved
	raw      any // the schema as generic JSON, to map schema locations to instance locations
}

func compileJSONSchemaGo(schema json.RawMessage) (*jsonSchemaGoSchema, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	// Validate refuses every instance for a $schema it does not support;
	// refuse the schema up front instead.
	switch s.Schema {
	case "", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema",
		"https://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2020-12/schema":
	default:
		return nil, fmt.Errorf("unsupported $schema %q: jsonschema-go supports draft-07 and draft 2020-12", s.Schema)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	var raw any
	if err := json.Unmarshal(schema, &raw); err != nil {
		return nil, err
	}
	return &jsonSchemaGoSchema{resolved: rs, raw: raw}, nil
}

func (v *jsonSchemaGoSchema) validate(raw []byte) (server.Verdict, error) {
	inst, bad := decodeArgs("jsonschema-go", raw)
	if bad != nil {
		return *bad, nil
	}
	err := v.resolved.Validate(inst)
	if err == nil {
		return server.Verdict{Valid: true}, nil
	}
	return rejected(v.issues(err)), nil
}

// splitJSONSchemaGoError separates the wrapped error into the chain of schema
// locations ("root", "/properties/limit", ...) and the innermost message.
func splitJSONSchemaGoError(err error) (levels []string, leaf string) {
	e := err
	for {
		u := errors.Unwrap(e)
		if u == nil {
			break
		}
		outer, inner := e.Error(), u.Error()
		if prefix, ok := strings.CutSuffix(outer, inner); ok {
			if loc, ok := strings.CutPrefix(prefix, "validating "); ok {
				if loc, ok := strings.CutSuffix(loc, ": "); ok {
					levels = append(levels, loc)
				}
			}
		}
		e = u
	}
	return levels, e.Error()
}

var (
	jsgKeywordRe = regexp.MustCompile(`^([A-Za-z$]+)(\[|:)`)
	jsgTypeRe    = regexp.MustCompile(`has type "([a-z]+)", want (one of )?"([a-z, ]+)"$`)
)

func (v *jsonSchemaGoSchema) issues(err error) []server.Issue {
	levels, leaf := splitJSONSchemaGoError(err)
	path, exact := v.instancePath(levels)

	keyword := ""
	switch {
	case strings.HasPrefix(leaf, "unexpected additional properties"):
		keyword = "additionalProperties"
	case strings.HasPrefix(leaf, "missing dynamic anchor"):
		keyword = "$dynamicRef"
	default:
		if m := jsgKeywordRe.FindStringSubmatch(leaf); m != nil {
			keyword = m[1]
		}
	}
	msg := "jsonschema-go: "
	if keyword != "" {
		msg += keyword + " failed"
	} else {
		msg += "validation failed"
	}
	switch keyword {
	case "type":
		if m := jsgTypeRe.FindStringSubmatch(leaf); m != nil {
			msg += fmt.Sprintf(" (got %s, want %s%s)", m[1], m[2], m[3])
		}
	case "required", "dependentRequired":
		// "required: missing properties: [\"a\" \"b\"]": names from the schema.
		if i := strings.LastIndex(leaf, "missing properties"); i >= 0 {
			names := parseGoQuotedList(strings.TrimLeft(leaf[i+len("missing properties"):], ": "))
			if len(names) > 0 {
				msg += " (missing " + strings.Join(names, ", ") + ")"
				if exact {
					// One error names every missing property: one issue each.
					var issues []server.Issue
					for _, n := range names {
						issues = append(issues,
							server.Issue{Path: server.Child(path, n), Message: msg, Keyword: keyword})
					}
					return issues
				}
			}
		}
	}
	if !exact {
		msg += " (somewhere inside this location: the library reports schema locations only)"
	}
	return []server.Issue{{Path: path, Message: msg, Keyword: keyword}}
}

// parseGoQuotedList parses the %q form of a []string: ["a" "b"].
func parseGoQuotedList(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "[")
	s = strings.TrimSuffix(s, "]")
	var out []string
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return out
		}
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return out
		}
		u, err := strconv.Unquote(q)
		if err != nil {
			return out
		}
		out = append(out, u)
		s = s[len(q):]
	}
}

// instancePath maps the chain of schema locations to an instance location.
// exact is false when the chain went through a keyword whose instance
// location cannot be derived from schema locations; the path returned is then
// the deepest location known to contain the failure.
func (v *jsonSchemaGoSchema) instancePath(levels []string) (string, bool) {
	if len(levels) == 0 {
		return "", false
	}
	var inst []string
	curPath := ""
	node := v.raw
	for _, next := range levels[1:] {
		if next == "root" { // a "#" reference back to the root
			curPath, node = "", v.raw
			continue
		}
		obj, _ := node.(map[string]any)
		if obj == nil {
			return server.Pointer(inst...), false
		}
		// A $ref is evaluated first; its target may also look like a child.
		if ref, ok := obj["$ref"].(string); ok && refTargetPath(ref) == next {
			curPath, node = next, findSchemaAt(v.raw, next)
			continue
		}
		if kw, key, child, ok := findChild(obj, curPath, next); ok {
			switch kw {
			case "properties":
				inst = append(inst, key)
			case "prefixItems", "items":
				if key == "" { // items as one schema: index not known
					return server.Pointer(inst...), false
				}
				inst = append(inst, key)
			case "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
				"dependentSchemas", "dependencies", "$defs", "definitions":
			default:
				return server.Pointer(inst...), false
			}
			curPath, node = next, child
			continue
		}
		// Not a child: a $ref or $dynamicRef target elsewhere in the schema.
		found := findSchemaAt(v.raw, next)
		if found == nil {
			return server.Pointer(inst...), false
		}
		curPath, node = next, found
	}
	return server.Pointer(inst...), true
}

// refTargetPath turns a local "#/a/b" reference into jsonschema-go's
// location form "/a/b" (a JSON Pointer, like the locations it reports).
func refTargetPath(ref string) string {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok || !strings.HasPrefix(frag, "/") {
		return ""
	}
	if strings.Contains(frag, "%") {
		if u, err := url.PathUnescape(frag); err == nil {
			frag = u
		}
	}
	return frag
}

var (
	schemaMapKeywords = []string{"properties", "patternProperties", "$defs", "definitions",
		"dependentSchemas", "dependencies"}
	schemaArrayKeywords  = []string{"prefixItems", "allOf", "anyOf", "oneOf", "items"}
	schemaSingleKeywords = []string{"items", "additionalItems", "additionalProperties", "contains",
		"not", "if", "then", "else",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
)

// findChild finds the immediate subschema of obj (located at curPath) whose
// location is target. Locations are JSON Pointers (map keys escaped).
func findChild(obj map[string]any, curPath, target string) (kw, key string, child any, ok bool) {
	for _, k := range schemaMapKeywords {
		m, _ := obj[k].(map[string]any)
		for name, c := range m {
			if curPath+"/"+k+"/"+server.PointerToken(name) == target {
				return k, name, c, true
			}
		}
	}
	for _, k := range schemaArrayKeywords {
		a, _ := obj[k].([]any)
		for i, c := range a {
			if curPath+"/"+k+"/"+strconv.Itoa(i) == target {
				return k, strconv.Itoa(i), c, true
			}
		}
	}
	for _, k := range schemaSingleKeywords {
		if c, present := obj[k]; present && curPath+"/"+k == target {
			if _, isArr := c.([]any); !isArr {
				return k, "", c, true
			}
		}
	}
	return "", "", nil, false
}

// findSchemaAt finds the subschema at jsonschema-go location target.
func findSchemaAt(root any, target string) any {
	if target == "root" {
		return root
	}
	if !strings.HasPrefix(target, "/") {
		return nil // an $id: not a location
	}
	v, ok := resolveLocalRef(root, "#"+target)
	if !ok {
		return nil
	}
	return v
}
