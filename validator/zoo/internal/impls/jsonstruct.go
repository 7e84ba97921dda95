package impls

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

// json-struct mirrors a Go agent that "just unmarshals" the arguments into a
// typed struct and trusts the result. The struct type is built at run time
// from the schema with reflect.StructOf:
//
//   - object with properties -> struct, one field per property with a json
//     tag (required properties and nested structs as pointers, other optional
//     properties as plain values, so a missing optional comes out as its zero
//     value);
//   - object without properties -> map[string]T (T from additionalProperties
//     when it is a schema, else any);
//   - string -> string, integer -> int64, number -> float64, boolean -> bool,
//     array -> []T (T from items);
//   - local $ref -> the referenced schema (recursive references -> any);
//   - type unions, "null", no type, anything else -> any.
//
// Nothing else in the schema is looked at (no enum, minimum, pattern,
// additionalProperties: false, ...): that is the point. After decoding, each
// required property must have a non-nil pointer (a JSON null counts as
// missing). The value passed on is the struct marshalled again, so what the
// decoding silently changed (case-insensitive key matching, dropped unknown
// keys, zero values for missing optionals, float64 rounding of "any"
// numbers, ...) is visible to toolproof.
//
// A property name that encoding/json cannot use as a tag name (empty, or
// with characters such as '"', ',', '\\') cannot be a struct field; such an
// object is decoded into map[string]any instead, as a Go programmer would
// have to.
var jsonStruct = server.Impl{
	Name: "json-struct",
	Description: "encoding/json into a struct built from the schema (reflect.StructOf): a Go agent that just " +
		"unmarshals",
	Version: runtime.Version(),
	Compile: func(schema json.RawMessage) (server.Validator, error) { return compileJSONStruct(schema, false) },
}

var jsonStructStrict = server.Impl{
	Name:        "json-struct-strict",
	Description: "json-struct with json.Decoder.DisallowUnknownFields",
	Version:     runtime.Version(),
	Compile:     func(schema json.RawMessage) (server.Validator, error) { return compileJSONStruct(schema, true) },
}

// jsNode describes the Go type built for one schema, with what the
// validation walks need.
type jsNode struct {
	typ    reflect.Type
	kind   jsKind
	fields []jsField // kindStruct
	elem   *jsNode   // kindSlice, kindMap
}

type jsKind int

const (
	kindAny jsKind = iota
	kindString
	kindInt
	kindFloat
	kindBool
	kindStruct
	kindSlice
	kindMap
)

type jsField struct {
	name     string // JSON name
	index    int
	required bool
	node     *jsNode // type of the value (the field itself may be a pointer to it)
}

type jsonStructValidator struct {
	root   *jsNode
	strict bool
	name   string // for messages
}

var anyType = reflect.TypeFor[any]()

func compileJSONStruct(schema json.RawMessage, strict bool) (server.Validator, error) {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, err
	}
	b := &jsBuilder{doc: doc}
	root := b.build(doc, nil)
	if root.kind != kindStruct && root.kind != kindMap {
		// The arguments are always an object: decode them into a map.
		root = &jsNode{typ: reflect.TypeFor[map[string]any](), kind: kindMap,
			elem: &jsNode{typ: anyType, kind: kindAny}}
	}
	name := "json-struct"
	if strict {
		name = "json-struct-strict"
	}
	return jsonStructValidator{root: root, strict: strict, name: name}, nil
}

type jsBuilder struct{ doc any }

func (b *jsBuilder) build(s any, refs []string) *jsNode {
	obj, ok := s.(map[string]any)
	if !ok {
		return &jsNode{typ: anyType, kind: kindAny}
	}
	if ref, ok := obj["$ref"].(string); ok {
		for _, r := range refs {
			if r == ref {
				return &jsNode{typ: anyType,
					kind: kindAny} // recursive: Go types cannot be built recursively at run time
			}
		}
		target, ok := resolveLocalRef(b.doc, ref)
		if !ok {
			return &jsNode{typ: anyType, kind: kindAny}
		}
		return b.build(target, append(refs, ref))
	}
	typ, _ := obj["type"].(string)
	if typ == "" {
		if _, hasProps := obj["properties"].(map[string]any); hasProps {
			typ = "object"
		}
	}
	switch typ {
	case "string":
		return &jsNode{typ: reflect.TypeFor[string](), kind: kindString}
	case "integer":
		return &jsNode{typ: reflect.TypeFor[int64](), kind: kindInt}
	case "number":
		return &jsNode{typ: reflect.TypeFor[float64](), kind: kindFloat}
	case "boolean":
		return &jsNode{typ: reflect.TypeFor[bool](), kind: kindBool}
	case "array":
		elem := &jsNode{typ: anyType, kind: kindAny}
		if items, ok := obj["items"].(map[string]any); ok {
			elem = b.build(items, refs)
		}
		return &jsNode{typ: reflect.SliceOf(elem.typ), kind: kindSlice, elem: elem}
	case "object":
		props, _ := obj["properties"].(map[string]any)
		if len(props) == 0 {
			elem := &jsNode{typ: anyType, kind: kindAny}
			if ap, ok := obj["additionalProperties"].(map[string]any); ok {
				elem = b.build(ap, refs)
			}
			return &jsNode{typ: reflect.MapOf(reflect.TypeFor[string](), elem.typ), kind: kindMap, elem: elem}
		}
		return b.buildStruct(obj, props, refs)
	}
	return &jsNode{typ: anyType, kind: kindAny}
}

func (b *jsBuilder) buildStruct(obj, props map[string]any, refs []string) *jsNode {
	required := map[string]bool{}
	if req, ok := obj["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				required[name] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	// Required names without a property schema still get a field.
	for name := range required {
		if _, ok := props[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		if !validJSONTagName(name) {
			return &jsNode{typ: reflect.TypeFor[map[string]any](), kind: kindMap,
				elem: &jsNode{typ: anyType, kind: kindAny}}
		}
	}
	var sfs []reflect.StructField
	var fields []jsField
	for i, name := range names {
		node := &jsNode{typ: anyType, kind: kindAny}
		if ps, ok := props[name]; ok {
			node = b.build(ps, refs)
		}
		ft := node.typ
		if required[name] || node.kind == kindStruct {
			ft = reflect.PointerTo(ft)
		}
		tagName := name
		if name == "-" {
			tagName = "-," // a bare "-" tag means "skip this field"
		}
		sfs = append(sfs, reflect.StructField{
			Name: "F" + strconv.Itoa(i),
			Type: ft,
			Tag:  reflect.StructTag(`json:"` + tagName + `"`),
		})
		fields = append(fields, jsField{name: name, index: i, required: required[name], node: node})
	}
	return &jsNode{typ: reflect.StructOf(sfs), kind: kindStruct, fields: fields}
}

// validJSONTagName is encoding/json's rule for a usable tag name.
func validJSONTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

func resolveLocalRef(doc any, ref string) (any, bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, false
	}
	if frag == "" {
		return doc, true
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, false
	}
	cur := doc
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func (v jsonStructValidator) Validate(raw []byte) (server.Verdict, error) {
	ptr := reflect.New(v.root.typ)
	dec := json.NewDecoder(bytes.NewReader(raw))
	if v.strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(ptr.Interface()); err != nil {
		issues := v.locateDecodeErrors(raw)
		if len(issues) == 0 {
			issues = []server.Issue{{Path: "", Message: v.name + ": decoding failed (" + decodeErrorKind(err) + ")"}}
		}
		return rejected(issues), nil
	}
	var issues []server.Issue
	checkRequired(ptr.Elem(), v.root, "", v.name, &issues)
	if len(issues) > 0 {
		return rejected(issues), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ptr.Interface()); err != nil {
		return server.Verdict{}, fmt.Errorf("%s: cannot marshal the decoded value: %s", v.name, errorKind(err))
	}
	return server.Verdict{Valid: true, Value: json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n"))}, nil
}

// checkRequired reports required fields left nil by the decoder.
func checkRequired(v reflect.Value, n *jsNode, path, name string, issues *[]server.Issue) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch n.kind {
	case kindStruct:
		for _, f := range n.fields {
			fv := v.Field(f.index)
			if f.required && fv.IsNil() {
				*issues = append(*issues, server.Issue{
					Path:    server.Child(path, f.name),
					Message: name + ": required property missing (or null)",
					Keyword: "required",
				})
				continue
			}
			checkRequired(fv, f.node, server.Child(path, f.name), name, issues)
		}
	case kindSlice:
		for i := 0; i < v.Len(); i++ {
			checkRequired(v.Index(i), n.elem, server.Child(path, strconv.Itoa(i)), name, issues)
		}
	case kindMap:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		for _, k := range keys {
			checkRequired(v.MapIndex(k), n.elem, server.Child(path, k.String()), name, issues)
		}
	}
}

// locateDecodeErrors finds where the arguments do not fit the Go type, the
// way encoding/json decides it: encoding/json's own errors name Go fields
// with dots (ambiguous) and quote the offending value, so they are not used.
func (v jsonStructValidator) locateDecodeErrors(raw []byte) []server.Issue {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil
	}
	var issues []server.Issue
	v.locate(doc, v.root, "", &issues)
	return issues
}

func (v jsonStructValidator) locate(val any, n *jsNode, path string, issues *[]server.Issue) {
	if val == nil {
		return // null leaves any Go value as it is
	}
	mismatch := func(want string) {
		*issues = append(*issues, server.Issue{
			Path:    path,
			Message: v.name + ": a JSON " + jsonKind(val) + " does not fit Go type " + want,
			Keyword: "type",
		})
	}
	switch n.kind {
	case kindAny:
	case kindString:
		if _, ok := val.(string); !ok {
			mismatch("string")
		}
	case kindBool:
		if _, ok := val.(bool); !ok {
			mismatch("bool")
		}
	case kindInt:
		num, ok := val.(json.Number)
		if !ok {
			mismatch("int64")
		} else if _, err := strconv.ParseInt(string(num), 10, 64); err != nil {
			*issues = append(*issues,
				server.Issue{Path: path,
					Message: v.name +
						": the number does not fit Go type int64 (fraction, exponent or out of range)",
					Keyword: "type"})
		}
	case kindFloat:
		num, ok := val.(json.Number)
		if !ok {
			mismatch("float64")
		} else if _, err := strconv.ParseFloat(string(num), 64); err != nil {
			*issues = append(*issues,
				server.Issue{Path: path,
					Message: v.name + ": the number does not fit Go type float64 (out of range)", Keyword: "type"})
		}
	case kindSlice:
		arr, ok := val.([]any)
		if !ok {
			mismatch("slice")
			return
		}
		for i, e := range arr {
			v.locate(e, n.elem, server.Child(path, strconv.Itoa(i)), issues)
		}
	case kindMap, kindStruct:
		obj, ok := val.(map[string]any)
		if !ok {
			mismatch(n.typ.Kind().String()) // "map" or "struct"
			return
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			elem := n.elem
			if n.kind == kindStruct {
				f := n.field(k)
				if f == nil {
					if v.strict {
						*issues = append(*issues, server.Issue{
							Path:    path,
							Message: "json-struct-strict: unknown field (DisallowUnknownFields)",
							Keyword: "additionalProperties",
						})
					}
					continue
				}
				elem = f.node
			}
			v.locate(obj[k], elem, server.Child(path, k), issues)
		}
	}
}

// field finds the struct field for a JSON key as encoding/json does: an
// exact name match first, else a case-insensitive one.
func (n *jsNode) field(key string) *jsField {
	for i := range n.fields {
		if n.fields[i].name == key {
			return &n.fields[i]
		}
	}
	for i := range n.fields {
		if strings.EqualFold(n.fields[i].name, key) {
			return &n.fields[i]
		}
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "value"
}
