package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/toolproof/toolproof/validator"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
	"github.com/toolproof/toolproof/validator/tool"
)

// Reference is the built-in gatekeeper, the Go form of the contract TypeBox and Zod gates follow:
// parse strictly, require a plain object, validate against the schema (draft 2020-12 unless the
// schema names draft-07 or another draft), coerce nothing, and report issues by JSON Pointer.
type Reference struct{}

// Name is "reference".
func (Reference) Name() string { return "reference" }

// Compile compiles the tool into a *Gatekeeper.
func (Reference) Compile(t tool.Tool) (validator.Gate, error) {
	g, err := Compile(t)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// A Gatekeeper is a gate that needs no hang protection, checked by the compiler.
var _ validator.Bounded = (*Gatekeeper)(nil)

// Gatekeeper is one tool compiled by the reference validator. It is safe for concurrent use.
type Gatekeeper struct {
	tool   tool.Tool
	schema *jsonschema.Schema
	keys   map[string]string // the schema's property names, for the parser to reuse

	oracleOnce sync.Once
	oracle     *Oracle // the tool's readings (Oracle), made on first need
}

// SchemaURL is the base URL a tool's schema is compiled under; nothing is ever loaded from it.
const SchemaURL = "mem://toolproof/"

// CompileOption changes how Compile reads a schema.
type CompileOption func(*compileConfig)

type compileConfig struct {
	formatAnnotation bool
	division         *floatDivision // FloatDivision's, nil without it
}

// FormatsAsAnnotations makes "format" an annotation, as draft 2020-12 has it by default, instead
// of an assertion (the gatekeeper's default). The test-suite export uses it to keep only cases
// whose verdict does not depend on the choice.
func FormatsAsAnnotations() CompileOption {
	return func(c *compileConfig) { c.formatAnnotation = true }
}

// compileHook, when set (by tests only), is called by every Compile: the tests count compiles.
var compileHook func(t tool.Tool, conf compileConfig)

// Compile compiles t's parameters schema. Formats are asserted; nothing is loaded from files or
// the network, so a $ref to anything outside the schema is an error. A schema that cannot be
// used gives a *validator.ConfigError.
func Compile(t tool.Tool, opts ...CompileOption) (*Gatekeeper, error) {
	var conf compileConfig
	for _, o := range opts {
		o(&conf)
	}
	if compileHook != nil {
		compileHook(t, conf)
	}
	cfg := func(err error) error { return &validator.ConfigError{Tool: t.Name, Source: t.Source, Err: err} }
	doc, err := jsonvalue.Parse(t.Parameters)
	if err != nil {
		return nil, cfg(fmt.Errorf("parameters are not JSON: %v", err))
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, cfg(fmt.Errorf("parameters must be a JSON Schema object, found %s", jsonvalue.TypeName(doc)))
	}
	if err := sizesFit(doc); err != nil {
		return nil, cfg(err)
	}
	if err := subschemasFit(doc); err != nil {
		return nil, cfg(err)
	}
	s, err := compileDocument(doc, SchemaURL+url.PathEscape(t.Name)+".json", conf)
	if err != nil {
		return nil, cfg(err)
	}
	if err := evaluationsFit(s); err != nil {
		return nil, cfg(err)
	}
	keys := map[string]string{}
	schemawalk.Each(s, func(x *jsonschema.Schema) {
		for k := range x.Properties {
			keys[k] = k
		}
	})
	return &Gatekeeper{tool: t, schema: s, keys: keys}, nil
}

// compileDocument compiles the schema document doc with santhosh-tekuri/jsonschema as the
// resource loc, no budget checked.
func compileDocument(doc any, loc string, conf compileConfig) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if !conf.formatAnnotation {
		c.AssertFormat()
	}
	c.UseLoader(refuseLoader{})
	c.UseRegexpEngine(ecmaRegexp)
	if conf.division != nil {
		c.RegisterVocabulary(conf.division.vocabulary())
		c.AssertVocabs()
	}
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, explainCompileError(err, loc, doc)
	}
	return s, nil
}

// sizeKeywords take a count; santhosh-tekuri/jsonschema keeps it in an int64, and one beyond
// that wraps around (maxLength 2^64 would read as 0 and reject every string).
var sizeKeywords = map[string]bool{"minLength": true, "maxLength": true, "minItems": true, "maxItems": true,
	"minProperties": true, "maxProperties": true, "minContains": true, "maxContains": true}

// sizesFit returns an error naming the first size keyword of the schema document doc whose
// count does not fit in an int64 (data, such as enum values, is not looked into).
func sizesFit(doc any) error {
	var err error
	schemawalk.Keywords(doc, func(_ map[string]any, k string, v any, at *schemawalk.Path) bool {
		if n, ok := v.(json.Number); ok && sizeKeywords[k] {
			if r, ok := jsonvalue.Rat(n); ok && r.IsInt() && !r.Num().IsInt64() {
				err = fmt.Errorf("%s is %s at %s: more than the oracle can hold (an int64)", k, n, at.String())
				return false
			}
		}
		return true
	})
	return err
}

type refuseLoader struct{}

func (refuseLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("remote reference %q: toolproof loads no files and no network resources", u)
}

func explainCompileError(err error, loc string, doc any) error {
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) && schemaNames(doc, le.URL) {
		return fmt.Errorf("$schema %s: not a dialect toolproof knows (drafts 4, 6, 7, 2019-09 and 2020-12); "+
			"metaschemas are not loaded", le.URL)
	}
	if errors.As(err, &le) {
		return fmt.Errorf("$ref to %s: remote references are not loaded (only local $defs)", le.URL)
	}
	if bad := badPattern(doc); bad != "" {
		return errors.New(bad)
	}
	msg := strings.ReplaceAll(err.Error(), loc, "")
	return errors.New(msg)
}

// schemaNames reports whether a "$schema" of the schema document doc names url.
func schemaNames(doc any, url string) bool {
	found := false
	schemawalk.Keywords(doc, func(_ map[string]any, k string, v any, _ *schemawalk.Path) bool {
		if s, ok := v.(string); ok && k == "$schema" && strings.TrimSuffix(s, "#") == strings.TrimSuffix(url, "#") {
			found = true
		}
		return !found
	})
	return found
}

// Tool is the tool this gate was compiled from.
func (g *Gatekeeper) Tool() tool.Tool { return g.tool }

// Schema is the compiled schema, for generators and analyses.
func (g *Gatekeeper) Schema() *jsonschema.Schema { return g.schema }

// Parse parses raw argument text and validates it: invalid JSON, a root that is not a plain
// object, duplicate keys and trailing data are rejected with an issue at the root. It returns
// the arguments object or an *validator.Error.
func (g *Gatekeeper) Parse(args []byte) (map[string]any, error) {
	v, err := jsonvalue.ParseKeys(args, g.keys)
	if err != nil {
		return nil, &validator.Error{Tool: g.tool.Name,
			Issues: []validator.Issue{{Path: "", Keyword: "json", Message: syntaxMessage(err)}}}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, &validator.Error{Tool: g.tool.Name, Issues: []validator.Issue{{Path: "", Keyword: "type",
			Message: fmt.Sprintf("arguments must be a JSON object, found %s", jsonvalue.TypeName(v))}}}
	}
	if issues := g.Issues(obj); len(issues) > 0 {
		return nil, &validator.Error{Tool: g.tool.Name, Issues: issues}
	}
	return obj, nil
}

func syntaxMessage(err error) string {
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("arguments are not valid JSON: %s at byte %d", se.Msg, se.Offset)
	}
	return "arguments are not valid JSON"
}

// Validate checks a decoded value (Go numbers are accepted and read exactly). It works on a deep
// copy, so v is never changed, and returns nil or an *validator.Error.
func (g *Gatekeeper) Validate(v any) error {
	c, err := jsonvalue.Clone(v)
	if err != nil {
		return &validator.Error{Tool: g.tool.Name, Issues: []validator.Issue{{Path: "", Message: err.Error()}}}
	}
	if _, ok := c.(map[string]any); !ok {
		return &validator.Error{Tool: g.tool.Name, Issues: []validator.Issue{{Path: "", Keyword: "type",
			Message: fmt.Sprintf("arguments must be a JSON object, found %s", jsonvalue.TypeName(c))}}}
	}
	if issues := g.Issues(c); len(issues) > 0 {
		return &validator.Error{Tool: g.tool.Name, Issues: issues}
	}
	return nil
}

// Bounded marks the gatekeeper as returning promptly on any input (see validator.Bounded).
func (g *Gatekeeper) Bounded() {}

// Check implements validator.Gate.
func (g *Gatekeeper) Check(_ context.Context, args []byte) validator.Verdict {
	if _, err := g.Parse(args); err != nil {
		return validator.Reject(validator.IssuesOf(err)...)
	}
	return validator.Accept()
}

// Issues validates v (a value as Parse returns it; not copied) against the schema, whatever its
// type, and returns the issues, nil when it is valid. Alternatives (anyOf, oneOf) are reported
// once at their location, not branch by branch.
func (g *Gatekeeper) Issues(v any) []validator.Issue {
	out := g.validate(v, false, true)
	if out != nil && len(out) == 0 {
		out = []validator.Issue{{Path: "", Message: "does not match the schema"}}
	}
	return out
}

// Valid reports whether v is valid, without building issues.
func (g *Gatekeeper) Valid(v any) bool { return g.schema.Validate(v) == nil }
