package impls

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/kaptinlin/jsonschema"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

// kaptinlin/jsonschema implements draft 2020-12 (its default dialect). The
// arguments are handed over as raw bytes (Schema.ValidateJSON), so its own
// decoder (go-json-experiment/json) parses them: it is stricter than
// encoding/json (duplicate member names are an error), which shows up as a
// rejection with keyword "format" / code invalid_json at the root.
//
// Results form a tree: each node has an instance location relative to its
// parent ("/name" or "/3", unescaped) and a map keyword -> error. Applicator
// keywords (properties, items, allOf, $ref, ...) carry a summary error at the
// parent whose real causes are in the child nodes; those summaries are
// dropped when a child explains them.
var kaptinlinJSONSchema = server.Impl{
	Name:        "kaptinlin",
	Description: "github.com/kaptinlin/jsonschema (draft 2020-12)",
	Module:      "github.com/kaptinlin/jsonschema",
	Version:     "v0.9.8",
	// One compiler per tool: the compiler caches schemas by $id, and tools
	// are independent of each other.
	Compile: compiled(func(schema json.RawMessage) (*jsonschema.Schema, error) {
		return jsonschema.NewCompiler().Compile(schema)
	}, validateKaptinlin),
}

func validateKaptinlin(s *jsonschema.Schema, raw []byte) (server.Verdict, error) {
	res := s.ValidateJSON(raw)
	if res == nil {
		return server.Verdict{}, fmt.Errorf("kaptinlin returned no result")
	}
	if res.IsValid() {
		return server.Verdict{Valid: true}, nil
	}
	return rejected(kaptinlinIssues(res, nil)), nil
}

// kaptinlinSummaries are keywords whose error only summarises failures
// reported in child results.
var kaptinlinSummaries = map[string]bool{
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"items": true, "prefixItems": true, "contains": true, "propertyNames": true,
	"allOf": true, "$ref": true, "$dynamicRef": true, "dependentSchemas": true,
	"then": true, "else": true, "unevaluatedProperties": true, "unevaluatedItems": true,
	"contentSchema": true,
}

// kaptinlinSafeParams are parameters taken from the schema (or naming a JSON
// type); every other parameter may carry argument values or names.
var kaptinlinSafeParams = []string{"expected", "received", "minimum", "maximum",
	"exclusive_minimum", "exclusive_maximum",
	"divisor", "min_length", "max_length", "min_items", "max_items", "min_properties",
	"max_properties", "format", "pattern"}

func kaptinlinIssues(r *jsonschema.EvaluationResult, base []string) []server.Issue {
	tokens := base
	if loc := r.InstanceLocation; loc != "" {
		// Set by the library as "/" + raw property name or index: one token.
		tokens = append(append([]string(nil), base...), strings.TrimPrefix(loc, "/"))
	}
	var fromChildren []server.Issue
	for _, d := range r.Details {
		if d == nil || d.Valid {
			continue
		}
		fromChildren = append(fromChildren, kaptinlinIssues(d, tokens)...)
	}
	path := server.Pointer(tokens...)
	keywords := make([]string, 0, len(r.Errors))
	for k := range r.Errors {
		keywords = append(keywords, k)
	}
	sort.Strings(keywords)
	var own []server.Issue
	for _, k := range keywords {
		e := r.Errors[k]
		if e == nil {
			continue
		}
		kw := e.Keyword
		if kw == "" {
			kw = k
		}
		if kw == "schema" && e.Code == "false_schema_mismatch" {
			kw = "false" // the boolean schema false (e.g. additionalProperties: false)
		}
		if kaptinlinSummaries[kw] && len(fromChildren) > 0 {
			continue
		}
		own = append(own, kaptinlinIssue(path, kw, e)...)
	}
	return append(own, fromChildren...)
}

func kaptinlinIssue(path, kw string, e *jsonschema.EvaluationError) []server.Issue {
	msg := "kaptinlin: " + kw + " failed"
	if e.Code != "" {
		msg += " (" + e.Code + ")"
	}
	switch {
	case kw == "required" || kw == "dependentRequired":
		// Params hold the missing names from the schema as "'a'" or "'a', 'b'".
		var names []string
		if p, ok := e.Params["property"].(string); ok {
			names = []string{strings.TrimSuffix(strings.TrimPrefix(p, "'"), "'")}
		} else if p, ok := e.Params["properties"].(string); ok {
			for _, n := range strings.Split(p, "', '") {
				names = append(names, strings.Trim(n, "'"))
			}
		}
		if len(names) > 0 {
			var out []server.Issue
			for _, n := range names {
				out = append(out, server.Issue{Path: server.Child(path, n),
					Message: msg + " (missing " + n + ")", Keyword: kw})
			}
			return out
		}
	case kw == "format" && e.Code == "invalid_json":
		msg = "kaptinlin: its JSON decoder (go-json-experiment) rejected the arguments (invalid_json: duplicate " +
			"member names or a lone surrogate escape)"
	default:
		var parts []string
		for _, p := range kaptinlinSafeParams {
			if kw == "enum" && (p == "received" || p == "expected") {
				continue // the enum's received is the value itself
			}
			if v, ok := e.Params[p]; ok {
				parts = append(parts, fmt.Sprintf("%s %v", p, v))
			}
		}
		if len(parts) > 0 {
			msg += ": " + strings.Join(parts, ", ")
		}
	}
	return []server.Issue{{Path: path, Message: msg, Keyword: kw}}
}
