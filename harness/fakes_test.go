package harness_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// Deliberately broken validators, each with a bug real gates have. The harness must catch
// every one of them with a default run (test the tester).

// wrapRef builds a validator from the reference: pre changes the parsed arguments before they
// are validated (and the changed value is what the gate passes on), schema rewrites the tool's
// schema before it is compiled.
func wrapRef(name string, schema func(map[string]any), pre func(v any) any) validator.Validator {
	return validator.Func(name, func(t tool.Tool) (func([]byte) (any, error), error) {
		if schema != nil {
			var s map[string]any
			if err := json.Unmarshal(t.Parameters, &s); err != nil {
				return nil, err
			}
			walkSchema(s, 0, schema)
			t.Parameters, _ = json.Marshal(s)
		}
		gk, err := oracle.Compile(t)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) {
			v, err := jsonvalue.Parse(args)
			if err != nil {
				return nil, &validator.Error{Tool: t.Name, Issues: []validator.Issue{{Path: "", Message: "not JSON"}}}
			}
			if pre != nil {
				v = pre(v)
			}
			if err := gk.Validate(v); err != nil {
				return nil, err
			}
			if pre != nil {
				return v, nil
			}
			return nil, nil
		}, nil
	})
}

// walkSchema calls fn on every subschema object, with its nesting depth in properties.
func walkSchema(s any, depth int, fn func(map[string]any)) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	m["__depth"] = depth
	fn(m)
	delete(m, "__depth")
	for k, v := range m {
		switch k {
		case "properties", "patternProperties", "$defs", "definitions":
			if mm, ok := v.(map[string]any); ok {
				for _, sub := range mm {
					walkSchema(sub, depth+1, fn)
				}
			}
		case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames":
			walkSchema(v, depth+1, fn)
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if a, ok := v.([]any); ok {
				for _, sub := range a {
					walkSchema(sub, depth, fn)
				}
			}
		}
	}
}

// mapValues applies fn to every value in v, bottom up.
func mapValues(v any, fn func(any) any) any {
	switch c := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range c {
			out[k] = mapValues(e, fn)
		}
		return fn(out)
	case []any:
		out := make([]any, len(c))
		for i, e := range c {
			out[i] = mapValues(e, fn)
		}
		return fn(out)
	}
	return fn(v)
}

type broken struct {
	name string
	v    validator.Validator
	want string // a kind that must be found, optionally "kind/class"
	opts harness.Options
	// everyTool: the bug shows on every tool, so a few tools show it (the full corpus would only
	// cost time: a hang costs the timeout on each tool)
	everyTool bool
}

func brokenValidators() []broken {
	return []broken{
		{"coerces numeric and boolean strings", wrapRef("coerce-strings", nil, func(v any) any {
			return mapValues(v, func(e any) any {
				if s, ok := e.(string); ok {
					t := strings.TrimSpace(s)
					if jsonvalue.IsNumber(t) {
						return json.Number(t)
					}
					if b, err := strconv.ParseBool(t); err == nil {
						return b
					}
				}
				return e
			})
		}), "missed/stringified_type", harness.Options{}, false},
		{"copies the arguments with Object.assign (__proto__ is lost, the prototype changed)",
			wrapRef("object-assign", nil, func(v any) any {
				return dropKeys(v, "__proto__")
			}), "missed/hallucinated_key", harness.Options{Checks: 3}, false}, // caught within a few checks
		{"checks keys with `in` on a plain object (inherited names pass)",
			wrapRef("key-in-object", nil, func(v any) any {
				return dropKeys(v, "constructor", "toString", "hasOwnProperty", "valueOf", "__proto__")
			}), "missed/hallucinated_key", harness.Options{Checks: 3}, false},
		{"drops unknown keys",
			onReference("drop-unknown", func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error) {
				v, err := jsonvalue.Parse(args)
				if err != nil {
					return nil, err
				}
				// Remove every key the oracle calls additional, then validate what is left.
				if m, ok := v.(map[string]any); ok {
					for _, is := range gk.Oracle().Explain(v) {
						if is.Keyword == "additionalProperties" {
							toks, _ := jsonvalue.SplitPointer(is.Path)
							if len(toks) == 1 {
								delete(m, toks[0])
							}
						}
					}
				}
				if err := gk.Validate(v); err != nil {
					return nil, err
				}
				return v, nil
			}), "missed/hallucinated_key", harness.Options{}, false},
		{"ignores nested enums", wrapRef("no-nested-enums", func(s map[string]any) {
			if s["__depth"].(int) >= 2 {
				delete(s, "enum")
			}
		}, nil), "missed/out_of_range_enum", harness.Options{}, false},
		{"ignores bounds", wrapRef("no-bounds", func(s map[string]any) {
			for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
				delete(s, k)
			}
		}, nil), "missed/out_of_range_enum", harness.Options{}, false},
		{"splits comma strings into arrays", wrapRef("split-commas", nil, func(v any) any {
			return mapValues(v, func(e any) any {
				if s, ok := e.(string); ok && strings.Contains(s, ",") {
					var out []any
					for _, p := range strings.Split(s, ",") {
						out = append(out, p)
					}
					return out
				}
				return e
			})
		}), "missed/flattened_array", harness.Options{}, false},
		{"rejects non-ASCII text",
			onReference("ascii-only", func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error) {
				for _, r := range string(args) {
					if r > 127 || r == utf8.RuneError {
						return nil, fmt.Errorf("non-ASCII input")
					}
				}
				if _, err := gk.Parse(args); err != nil {
					return nil, err
				}
				return nil, nil
			}), "false_reject/valid", harness.Options{}, false},
		{"leaks values into messages",
			onReference("leaky", func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error) {
				if _, err := gk.Parse(args); err != nil {
					verr := err.(*validator.Error)
					for i := range verr.Issues {
						verr.Issues[i].Message += fmt.Sprintf(" (got %s)", args)
					}
					return nil, verr
				}
				return nil, nil
			}), "leak", harness.Options{}, false},
		{"mutates its input",
			onReference("mutating", func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error) {
				_, err := gk.Parse(args)
				for i := range args {
					if args[i] == ' ' {
						args[i] = '_' // "normalises" whitespace in place
					}
				}
				if len(args) > 0 {
					args[0] = '{'
				}
				return nil, err
			}), "mutated_input", harness.Options{}, true},
		{"panics", onReference("panicky", func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error) {
			v, err := jsonvalue.Parse(args)
			if err != nil {
				return nil, err
			}
			if _, ok := v.(map[string]any); !ok {
				var m map[string]any
				m["root"] = v // assignment to a nil map: panics on every non-object root
			}
			return nil, gk.Validate(v)
		}), "crash/root_not_object", harness.Options{}, true},
		{"hangs", onReference("hangs", func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error) {
			if len(args) > 0 && args[0] == '[' {
				time.Sleep(time.Hour)
			}
			_, err := gk.Parse(args)
			return nil, err
		}), "timeout/root_not_object", harness.Options{}, true},
		{"accepts null for anything", wrapRef("null-ok", nil, func(v any) any {
			return mapValues(v, func(e any) any {
				if m, ok := e.(map[string]any); ok {
					for k, x := range m {
						if x == nil {
							delete(m, k)
						}
					}
				}
				return e
			})
		}), "missed/null_value", harness.Options{}, false},
		{"reports every issue at the root",
			onReference("root-only", func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error) {
				if _, err := gk.Parse(args); err != nil {
					return nil, &validator.Error{Tool: t.Name,
						Issues: []validator.Issue{{Path: "/", Message: "invalid"}}}
				}
				return nil, nil
			}), "imprecise_location/out_of_range_enum", harness.Options{RequireLocation: true}, false},
		{"answers every rejection with one issue at the root",
			onReference("root-pointer", func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error) {
				if _, err := gk.Parse(args); err != nil {
					return nil, &validator.Error{Tool: t.Name,
						Issues: []validator.Issue{{Path: "", Message: "invalid arguments"}}}
				}
				return nil, nil
			}), "imprecise_location/stringified_type", harness.Options{RequireLocation: true}, false},
	}
}

// onReference is the validator name whose gate for a tool t runs check with t's reference
// gatekeeper gk on each call's arguments.
func onReference(name string,
	check func(t tool.Tool, gk *oracle.Gatekeeper, args []byte) (any, error)) validator.Validator {
	return validator.Func(name, func(t tool.Tool) (func([]byte) (any, error), error) {
		gk, err := oracle.Compile(t)
		if err != nil {
			return nil, err
		}
		return func(args []byte) (any, error) { return check(t, gk, args) }, nil
	})
}

// dropKeys removes the named keys from every object in v, the way a JavaScript copy through
// [[Set]] loses __proto__, or a check with `in` lets inherited names through.
func dropKeys(v any, names ...string) any {
	switch x := v.(type) {
	case map[string]any:
		for _, n := range names {
			delete(x, n)
		}
		for _, e := range x {
			dropKeys(e, names...)
		}
	case []any:
		for _, e := range x {
			dropKeys(e, names...)
		}
	}
	return v
}
