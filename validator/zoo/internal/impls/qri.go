package impls

import (
	"context"
	"encoding/json"
	"regexp"

	"github.com/qri-io/jsonschema"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

// qri-io/jsonschema implements draft 2019-09 (no 2020-12: prefixItems,
// $dynamicRef and the 2020-12 items are unknown keywords, silently ignored;
// "definitions" and "dependencies" are listed as unsupported and ignored).
// Its errors carry an instance JSON Pointer and a free-text message (no
// keyword), which quotes the offending value; the keyword is recovered here
// from the fixed part of the message and the message rebuilt from it.
var qriJSONSchema = server.Impl{
	Name:        "qri",
	Description: "github.com/qri-io/jsonschema (draft 2019-09; string \"true\"/\"false\" pass as boolean)",
	Module:      "github.com/qri-io/jsonschema",
	Version:     "v0.2.1",
	Compile: compiled(func(schema json.RawMessage) (*jsonschema.Schema, error) {
		rs := &jsonschema.Schema{}
		return rs, json.Unmarshal(schema, rs)
	}, validateQri),
}

func validateQri(s *jsonschema.Schema, raw []byte) (server.Verdict, error) {
	doc, bad := decodeArgs("qri", raw) // ValidateBytes would fail the same way
	if bad != nil {
		return *bad, nil
	}
	state := s.Validate(context.Background(), doc)
	if state.Errs == nil || len(*state.Errs) == 0 {
		return server.Verdict{Valid: true}, nil
	}
	var issues []server.Issue
	for _, e := range *state.Errs {
		issues = append(issues, qriIssue(e))
	}
	return rejected(issues), nil
}

// qriMessages classifies qri's messages by their fixed text (prefix, or for
// the messages that start with a value, the text after it). Order matters.
var qriMessages = []struct {
	re      *regexp.Regexp
	keyword string
}{
	{regexp.MustCompile(`^"(.*)" value is required$`), "required"},
	{regexp.MustCompile(`^"(.*)" property is required$`), "dependentRequired"},
	{regexp.MustCompile(`^type should be (one of: )?[a-z,]+, got [a-z]+$`), "type"},
	{regexp.MustCompile(`^must be a multiple of `), "multipleOf"},
	{regexp.MustCompile(`^must be less than or equal to `), "maximum"},
	{regexp.MustCompile(`^must be greater than or equal to `), "minimum"},
	{regexp.MustCompile(`^\S+ must be less than `), "exclusiveMaximum"},
	{regexp.MustCompile(`^\S+ must be greater than `), "exclusiveMinimum"},
	{regexp.MustCompile(`^max length of \d+ characters exceeded`), "maxLength"},
	{regexp.MustCompile(`^min length of \d+ characters required`), "minLength"},
	{regexp.MustCompile(`^regexp pattern `), "pattern"},
	{regexp.MustCompile(`^array length \d+ exceeds`), "maxItems"},
	{regexp.MustCompile(`^array length \d+ below`), "minItems"},
	{regexp.MustCompile(`^array items must be unique`), "uniqueItems"},
	{regexp.MustCompile(`^must contain at least one of`), "contains"},
	{regexp.MustCompile(`^contained items \d+ exceeds`), "maxContains"},
	{regexp.MustCompile(`^contained items \d+ bellow`), "minContains"},
	{regexp.MustCompile(`^additional items are not allowed$`), "additionalItems"},
	{regexp.MustCompile(`^unevaluated items are not allowed$`), "unevaluatedItems"},
	{regexp.MustCompile(`^did Not match any specified AnyOf schemas$`), "anyOf"},
	{regexp.MustCompile(`^matched more than one specified OneOf schemas$`), "oneOf"},
	{regexp.MustCompile(`^did not match any of the specified OneOf schemas$`), "oneOf"},
	{regexp.MustCompile(`^result was valid, \('not'\) expected invalid$`), "not"},
	{regexp.MustCompile(`^failed to resolve schema for ref `), "$ref"},
	{regexp.MustCompile(`^\d+ object Properties exceed`), "maxProperties"},
	{regexp.MustCompile(`^\d+ object Properties below`), "minProperties"},
	{regexp.MustCompile(`^additional properties are not allowed$`), "additionalProperties"},
	{regexp.MustCompile(`^unevaluated properties are not allowed$`), "unevaluatedProperties"},
	{regexp.MustCompile(`^invalid ([a-z0-9-]+): `), "format"},
	{regexp.MustCompile(`^must equal `), "const"},
	{regexp.MustCompile(`^should be one of `), "enum"},
	{regexp.MustCompile(`^schema is always false$`), "false"},
	// A $ref that resolved to nothing validates against a nil schema.
	{regexp.MustCompile(`^schema is nil$`), "$ref"},
}

func qriIssue(e jsonschema.KeyError) server.Issue {
	path := e.PropertyPath
	if path == "/" {
		path = "" // qri writes the root as "/"
	}
	for _, m := range qriMessages {
		sub := m.re.FindStringSubmatch(e.Message)
		if sub == nil {
			continue
		}
		msg := "qri: " + m.keyword + " failed"
		switch m.keyword {
		case "required", "dependentRequired":
			// The name comes from the schema.
			path = server.Child(path, sub[1])
			msg += " (missing " + sub[1] + ")"
		case "type":
			msg = "qri: " + e.Message // "type should be integer, got string": types only
		case "format":
			msg += " (format " + sub[1] + ")"
		}
		return server.Issue{Path: path, Message: msg, Keyword: m.keyword}
	}
	// Unknown message: it may quote the value, so say nothing of it.
	return server.Issue{Path: path, Message: "qri: validation failed (unrecognised message)"}
}
