package harness

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// declared is a tool's model-facing schema, read for the defaults it declares: a gate that fills
// in such a default passes on what the model was told it would (declared_default), not a silent
// change. nil when the schema declares no default.
type declared struct{ root any }

// declaredDefaults reads params for its defaults; nil when it has none.
func declaredDefaults(params []byte) *declared {
	if !bytes.Contains(params, []byte(`"default"`)) {
		return nil
	}
	v, err := jsonvalue.Parse(params)
	if err != nil {
		return nil
	}
	return &declared{root: v}
}

// only reports whether passed differs from sent only by keys that were absent and that the
// schema gives a default for, each filled in with that default.
func (d *declared) only(sent, passed any) bool {
	return d != nil && d.fits(d.root, sent, passed, 0)
}

// maxDefaultDepth bounds the walk (values nested deeper are not a default's doing).
const maxDefaultDepth = 64

func (d *declared) fits(schema, sent, passed any, depth int) bool {
	if sameValue(sent, passed) {
		return true
	}
	if depth > maxDefaultDepth {
		return false
	}
	switch s := sent.(type) {
	case map[string]any:
		p, ok := passed.(map[string]any)
		if !ok {
			return false
		}
		for k, sv := range s {
			pv, ok := p[k]
			if !ok || !d.fits(d.sub(schema, "properties", k), sv, pv, depth+1) {
				return false
			}
		}
		for k, pv := range p {
			if _, ok := s[k]; ok {
				continue
			}
			def, ok := d.defaultOf(d.sub(schema, "properties", k))
			if !ok || !sameValue(def, pv) {
				return false
			}
		}
		return true
	case []any:
		p, ok := passed.([]any)
		if !ok || len(p) != len(s) {
			return false
		}
		for i := range s {
			item := d.sub(schema, "prefixItems", strconv.Itoa(i))
			if item == nil {
				item = d.sub(schema, "items", "")
			}
			if !d.fits(item, s[i], p[i], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// sub finds the subschema under keyword (and name, for properties and prefixItems) in schema or
// in the allOf, anyOf and oneOf branches it applies; nil when none has it.
func (d *declared) sub(schema any, keyword, name string) any {
	m, ok := d.resolve(schema).(map[string]any)
	if !ok {
		return nil
	}
	if v, ok := m[keyword]; ok {
		switch keyword {
		case "properties":
			if props, ok := v.(map[string]any); ok {
				if s, ok := props[name]; ok {
					return s
				}
			}
		case "prefixItems":
			if list, ok := v.([]any); ok {
				if i, err := strconv.Atoi(name); err == nil && i < len(list) {
					return list[i]
				}
			}
		default:
			if _, isMap := v.(map[string]any); isMap {
				return v
			}
		}
	}
	for _, branch := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := m[branch].([]any)
		for _, b := range list {
			if s := d.sub(b, keyword, name); s != nil {
				return s
			}
		}
	}
	return nil
}

// defaultOf is the default schema declares (itself or in an allOf branch).
func (d *declared) defaultOf(schema any) (any, bool) {
	m, ok := d.resolve(schema).(map[string]any)
	if !ok {
		return nil, false
	}
	if v, ok := m["default"]; ok {
		return v, true
	}
	list, _ := m["allOf"].([]any)
	for _, b := range list {
		if v, ok := d.defaultOf(b); ok {
			return v, true
		}
	}
	return nil, false
}

// resolve follows local $refs (#/...) a few steps.
func (d *declared) resolve(schema any) any {
	for range 8 {
		m, ok := schema.(map[string]any)
		if !ok {
			return schema
		}
		ref, ok := m["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			return schema
		}
		target := d.root
		for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			next, ok := target.(map[string]any)
			if !ok {
				return nil
			}
			target = next[tok]
		}
		schema = target
	}
	return schema
}
