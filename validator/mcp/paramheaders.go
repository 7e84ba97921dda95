package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A paramHeader is an x-mcp-header annotation of the 2026-07-28 revision: over HTTP, the value
// of the argument at path goes in the header Mcp-Param-{name} too.
type paramHeader struct {
	name string
	path []string
}

// paramHeaders reads a tool's x-mcp-header annotations. An error is an annotation the revision
// does not allow (not a header token, twice the same name, on a type other than string,
// integer or boolean, or not reached from the root by properties alone): such a tool is left
// out, as the revision asks of clients.
func paramHeaders(schema json.RawMessage) ([]paramHeader, error) {
	var root any
	d := json.NewDecoder(bytes.NewReader(schema))
	d.UseNumber()
	if d.Decode(&root) != nil {
		return nil, nil
	}
	var out []paramHeader
	seen := map[string]bool{}
	var walk func(s any, path []string) error
	walk = func(s any, path []string) error {
		m, _ := s.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		for k, sub := range props {
			sm, _ := sub.(map[string]any)
			p := append(append([]string(nil), path...), k)
			if h, ok := sm["x-mcp-header"]; ok {
				name, _ := h.(string)
				if name == "" || !validHeaderName(name) {
					return fmt.Errorf("x-mcp-header %v at /%s is not a header name", h, strings.Join(p, "/"))
				}
				if seen[strings.ToLower(name)] {
					return fmt.Errorf("x-mcp-header %q is given twice", name)
				}
				if t, _ := sm["type"].(string); t != "string" && t != "integer" && t != "boolean" {
					return fmt.Errorf("x-mcp-header %q is on a parameter of type %v (string, integer or boolean only)",
						name, sm["type"])
				}
				seen[strings.ToLower(name)] = true
				out = append(out, paramHeader{name: name, path: p})
			}
			if err := walk(sub, p); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, nil); err != nil {
		return nil, err
	}
	if n := countAnnotations(root, ""); n != len(out) {
		return nil, fmt.Errorf("%d x-mcp-header annotations are not reached from the root by properties alone",
			n-len(out))
	}
	return out, nil
}

// countAnnotations counts the x-mcp-header keywords in a schema (not property names, not
// values of enum, const, default or examples).
func countAnnotations(s any, parent string) int {
	n := 0
	switch v := s.(type) {
	case map[string]any:
		for k, sub := range v {
			if k == "x-mcp-header" && parent != "properties" {
				n++
			}
			if k == "enum" || k == "const" || k == "default" || k == "examples" {
				continue
			}
			n += countAnnotations(sub, k)
		}
	case []any:
		for _, sub := range v {
			n += countAnnotations(sub, "")
		}
	}
	return n
}

// paramValues are the Mcp-Param-* headers for one call: each annotated argument that is a
// string, a number or a boolean, written as the revision says; an absent or null one, or one
// of another type (a distorted case), has no header.
func paramValues(hs []paramHeader, args []byte) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	var root any
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	if d.Decode(&root) != nil {
		return nil
	}
	out := map[string]string{}
	for _, h := range hs {
		v := root
		for _, k := range h.path {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		switch x := v.(type) {
		case string:
			out["Mcp-Param-"+h.name] = headerValue(x)
		case json.Number:
			out["Mcp-Param-"+h.name] = x.String()
		case bool:
			out["Mcp-Param-"+h.name] = fmt.Sprint(x)
		}
	}
	return out
}
