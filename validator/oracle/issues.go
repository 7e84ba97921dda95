package oracle

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// The issues of a value: santhosh-tekuri/jsonschema's tree of errors read as a flat list of
// places and keywords, with the then or else a failure lies in, and messages that never hold
// the instance value. Issues, and the oracle's Errors, Causes and Explain, are readings of it.

// validate returns nil for a valid v, else its issues (a non-nil, possibly empty slice): with
// all, the branches of alternatives too; with messages, their text.
func (g *Gatekeeper) validate(v any, all, messages bool) []validator.Issue {
	return issuesOf(g.schema.Validate(v), v, all, messages)
}

// issuesOf is validate's reading of the error of Validate(v).
func issuesOf(err error, v any, all, messages bool) []validator.Issue {
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []validator.Issue{{Path: "", Message: "cannot validate: " + err.Error()}}
	}
	out := []validator.Issue{}
	flatten(ve, all, messages, v, branchBase{ve.SchemaURL, 0}, &out)
	sortIssues(out)
	return out
}

// sortIssues orders issues by path, then keyword, then message, so output is the same from run
// to run (the validator walks Go maps).
func sortIssues(is []validator.Issue) {
	slices.SortStableFunc(is, func(a, b validator.Issue) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if c := strings.Compare(a.Keyword, b.Keyword); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// branchBase is where the schema locations of the errors below an error node start: the
// location of the root schema or of the latest $ref (or $dynamicRef) target, with the depth in
// the value at which that schema applies.
type branchBase struct {
	url   string
	depth int
}

func flatten(e *jsonschema.ValidationError, all, messages bool, instance any, base branchBase, out *[]validator.Issue) {
	switch k := e.ErrorKind.(type) {
	case *kind.Reference:
		// The $ref itself may lie in a then or else; below it the schema locations are the
		// target's, and the target applies to the value where the $ref is.
		if all {
			branchIssues(e, base, messages, out)
		}
		base = branchBase{k.URL, len(e.InstanceLocation)}
	case nil, *kind.Schema, *kind.Group, *kind.AllOf:
		// Only what lies under them says something.
	case *kind.PropertyNames:
		// santhosh v6.0.3 keeps a slice for this location that later validation overwrites: only
		// its length can be trusted. Report the name in every object at that depth that has it.
		objs := objectsWithKey(instance, k.Property, len(e.InstanceLocation))
		for _, p := range objs {
			*out = append(*out, validator.Issue{Path: child(p, k.Property), Keyword: "propertyNames",
				Message: "is not an allowed property name"})
		}
		if all && len(objs) == 1 {
			// The propertyNames may lie in a then or else: its SchemaURL is the keyword's own.
			// Only one object can be the one that failed (its location is not trusted).
			toks, _ := jsonvalue.SplitPointer(objs[0])
			for _, b := range branchPlaces(strings.TrimSuffix(e.SchemaURL, "/propertyNames"), base, len(toks)) {
				addBranch(out, jsonvalue.Pointer(toks[:b.depth]), b.keyword, messages)
			}
		}
		return
	default:
		descend := describe(k, jsonvalue.Pointer(e.InstanceLocation), issueSink{out, messages})
		if all && len(e.Causes) == 0 {
			branchIssues(e, base, messages, out)
		}
		if !descend && !all {
			return
		}
	}
	for _, c := range e.Causes {
		flatten(c, all, messages, instance, base, out)
	}
}

// branchIssues adds, for an error found inside the then or else of an if, an issue with that
// keyword at the object that holds the if: santhosh reports only the error inside, but a gate
// may name the branch instead ("must match "then" schema", as Ajv and TypeBox do), and the
// mutators raise a case's scope to it. The instance place of the branch comes from the
// error's schema location, read from base (the root, or the target of the $ref the error lies
// under, which applies where the $ref is); where that path goes through a keyword this cannot
// follow, nothing is added.
func branchIssues(e *jsonschema.ValidationError, base branchBase, messages bool, out *[]validator.Issue) {
	for _, b := range branchPlaces(e.SchemaURL, base, len(e.InstanceLocation)) {
		addBranch(out, jsonvalue.Pointer(e.InstanceLocation[:b.depth]), b.keyword, messages)
	}
}

// branchPlace is a then or else on a schema path, and the depth in the value of the object
// that holds its if.
type branchPlace struct {
	keyword string
	depth   int
}

// branchPlaces returns the then and else on the schema path from base to url, with the depth
// in the value of the object that holds each if, when that path ends at depth n.
func branchPlaces(url string, base branchBase, n int) []branchPlace {
	rest, ok := strings.CutPrefix(url, base.url)
	if !ok || rest != "" && rest[0] != '/' || !strings.Contains(rest, "/then") && !strings.Contains(rest, "/else") {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	depth := base.depth
	var found []branchPlace
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "then", "else":
			found = append(found, branchPlace{toks[i], depth})
		case "properties", "patternProperties", "prefixItems":
			i++
			depth++
		case "items":
			depth++
			if i+1 < len(toks) && isIndex(toks[i+1]) {
				i++ // draft 7's array of items: the schema of one position
			}
		case "additionalProperties", "contains", "unevaluatedProperties", "unevaluatedItems", "additionalItems":
			depth++
		case "allOf", "anyOf", "oneOf", "dependentSchemas", "dependencies":
			i++
		case "not", "if":
		default:
			return nil // a keyword that moves elsewhere in the schema ($defs, definitions, ...)
		}
	}
	// The schema path must lead to the error's own place.
	if depth != n {
		return nil
	}
	return found
}

// addBranch adds the issue of a failing then or else at path, once.
func addBranch(out *[]validator.Issue, path, keyword string, messages bool) {
	is := validator.Issue{Path: path, Keyword: keyword}
	if messages {
		is.Message = fmt.Sprintf("must match the %q branch of the if", keyword)
	}
	if !slices.Contains(*out, is) {
		*out = append(*out, is)
	}
}

// isIndex reports whether tok is an array index in a JSON Pointer.
func isIndex(tok string) bool {
	if tok == "" {
		return false
	}
	for _, c := range tok {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// objectsWithKey returns the JSON Pointers of the objects at the given depth in v that have key.
func objectsWithKey(v any, key string, depth int) []string {
	var out []string
	var walk func(v any, path string, d int)
	walk = func(v any, path string, d int) {
		switch c := v.(type) {
		case map[string]any:
			if d == depth {
				if _, ok := c[key]; ok {
					out = append(out, path)
				}
				return
			}
			for k, e := range c {
				walk(e, child(path, k), d+1)
			}
		case []any:
			if d == depth {
				return
			}
			for i, e := range c {
				walk(e, path+"/"+strconv.Itoa(i), d+1)
			}
		}
	}
	walk(v, "", 0)
	sort.Strings(out)
	return out
}

func child(loc, name string) string { return loc + "/" + jsonvalue.EscapeToken(name) }

// describe emits the issues for one error kind, with messages that never contain the instance
// value (schema values such as bounds and enum members are fine). It reports whether the
// causes should be flattened too: not below an alternative or contains, which say it whole.
func describe(k jsonschema.ErrorKind, loc string, sink issueSink) bool {
	switch k := k.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		return true
	case *kind.Contains:
		sink.emit(loc, "contains", func() string { return "must contain a matching item" })
		return false
	case *kind.MinContains:
		sink.emit(loc, "minContains",
			func() string { return fmt.Sprintf("must contain at least %d matching items", k.Want) })
		return false
	case *kind.MaxContains:
		sink.emit(loc, "maxContains",
			func() string { return fmt.Sprintf("must contain at most %d matching items", k.Want) })
		return false
	case *kind.AnyOf:
		sink.emit(loc, "anyOf", func() string { return "must match at least one of the allowed shapes" })
		return false
	case *kind.OneOf:
		if len(k.Subschemas) > 1 {
			sink.emit(loc, "oneOf",
				func() string { return "matches more than one of the allowed shapes; must match exactly one" })
		} else {
			sink.emit(loc, "oneOf", func() string { return "must match exactly one of the allowed shapes" })
		}
		return false
	case *kind.Required, *kind.DependentRequired, *kind.Dependency, *kind.AdditionalProperties, *kind.UniqueItems:
		describeMember(k, loc, sink)
	default:
		describeValue(k, loc, sink)
	}
	return true
}

// describeMember emits the issues of kinds reported at a member of the value: a key it lacks or
// should not have, an item that repeats another.
func describeMember(k jsonschema.ErrorKind, loc string, sink issueSink) {
	switch k := k.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			sink.emit(child(loc, m), "required", func() string { return "is required" })
		}
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			sink.emit(child(loc, m), "dependentRequired",
				func() string { return fmt.Sprintf("is required when %q is present", k.Prop) })
		}
	case *kind.Dependency:
		for _, m := range k.Missing {
			sink.emit(child(loc, m), "dependencies",
				func() string { return fmt.Sprintf("is required when %q is present", k.Prop) })
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			sink.emit(child(loc, p), "additionalProperties",
				func() string { return "is not a property this tool accepts" })
		}
	case *kind.UniqueItems:
		sink.emit(child(loc, fmt.Sprint(k.Duplicates[1])), "uniqueItems",
			func() string { return fmt.Sprintf("duplicates item %d; items must be unique", k.Duplicates[0]) })
	}
}

// describeValue emits the issue of a kind reported at the value itself.
func describeValue(k jsonschema.ErrorKind, loc string, sink issueSink) {
	switch k := k.(type) {
	case *kind.Type:
		sink.emit(loc, "type",
			func() string { return fmt.Sprintf("must be %s, found %s", strings.Join(k.Want, " or "), k.Got) })
	case *kind.Enum:
		sink.emit(loc, "enum", func() string { return "must be one of " + listValues(k.Want) })
	case *kind.Const:
		sink.emit(loc, "const", func() string { return "must be " + showValue(k.Want) })
	case *kind.Format:
		sink.emit(loc, "format", func() string { return fmt.Sprintf("must be a valid %s", k.Want) })
	case *kind.MinProperties:
		sink.emit(loc, "minProperties",
			func() string { return fmt.Sprintf("must have at least %d properties", k.Want) })
	case *kind.MaxProperties:
		sink.emit(loc, "maxProperties", func() string { return fmt.Sprintf("must have at most %d properties", k.Want) })
	case *kind.MinItems:
		sink.emit(loc, "minItems", func() string { return fmt.Sprintf("must have at least %d items", k.Want) })
	case *kind.MaxItems:
		sink.emit(loc, "maxItems", func() string { return fmt.Sprintf("must have at most %d items", k.Want) })
	case *kind.AdditionalItems:
		sink.emit(loc, "additionalItems", func() string { return fmt.Sprintf("must have at most %d items", k.Count) })
	case *kind.MinLength:
		sink.emit(loc, "minLength", func() string { return fmt.Sprintf("must be at least %d characters long", k.Want) })
	case *kind.MaxLength:
		sink.emit(loc, "maxLength", func() string { return fmt.Sprintf("must be at most %d characters long", k.Want) })
	case *kind.Pattern:
		sink.emit(loc, "pattern", func() string { return fmt.Sprintf("must match the pattern %s", k.Want) })
	case *kind.Minimum:
		sink.emit(loc, "minimum", func() string { return fmt.Sprintf("must be >= %s", ratString(k.Want)) })
	case *kind.Maximum:
		sink.emit(loc, "maximum", func() string { return fmt.Sprintf("must be <= %s", ratString(k.Want)) })
	case *kind.ExclusiveMinimum:
		sink.emit(loc, "exclusiveMinimum", func() string { return fmt.Sprintf("must be > %s", ratString(k.Want)) })
	case *kind.ExclusiveMaximum:
		sink.emit(loc, "exclusiveMaximum", func() string { return fmt.Sprintf("must be < %s", ratString(k.Want)) })
	case *kind.MultipleOf:
		sink.emit(loc, "multipleOf",
			func() string { return fmt.Sprintf("must be a multiple of %s", ratString(k.Want)) })
	case *kind.Not:
		sink.emit(loc, "not", func() string { return "must not match the excluded shape" })
	case *kind.FalseSchema:
		sink.emit(loc, "false", func() string { return "is not allowed" })
	case *kind.InvalidJsonValue:
		sink.emit(loc, "type", func() string { return "is not a JSON value" })
	case *kind.ContentEncoding, *kind.ContentMediaType, *kind.ContentSchema:
		sink.emit(loc, "content", func() string { return "content does not match its declared encoding or media type" })
	case *kind.RefCycle:
		sink.emit(loc, "$ref", func() string { return "reference cycle in schema" })
	default:
		kp := k.KeywordPath()
		kw := ""
		if len(kp) > 0 {
			kw = kp[0]
		}
		sink.emit(loc, kw, func() string { return fmt.Sprintf("fails %q", kw) })
	}
}

// issueSink collects the issues describe emits. A method, not a closure, so the message
// functions given to it stay on the stack: they are called only when messages are wanted.
type issueSink struct {
	out      *[]validator.Issue
	messages bool
}

func (s issueSink) emit(path, keyword string, msg func() string) {
	is := validator.Issue{Path: path, Keyword: keyword}
	if s.messages {
		is.Message = msg()
	}
	*s.out = append(*s.out, is)
}

func ratString(r interface{ RatString() string }) string { return r.RatString() }

// showValue renders a schema value (never an instance value) for a message.
func showValue(v any) string {
	b, err := jsonvalue.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

func listValues(vs []any) string {
	var parts []string
	n := 0
	for i, v := range vs {
		if i == 12 || n > 200 {
			parts = append(parts, fmt.Sprintf("... (%d values)", len(vs)))
			break
		}
		s := showValue(v)
		n += len(s)
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
