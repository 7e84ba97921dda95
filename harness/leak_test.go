package harness

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/validator"
	"pgregory.net/rapid"
)

// TestLeakedValues: a rejection that repeats what the model sent is a leak, for a valid call as
// for a distorted one; one that names the place, the expected type or the schema's own values
// (an enum value, a bound equal to the value however written) is a correction.
func TestLeakedValues(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"when":{"type":"string","format":"date-time"},` +
		`"unit":{"enum":["celsius","kelvin"]},"n":{"type":"integer","exclusiveMaximum":1e20},"ok":{"type":"boolean"}}}`)
	for _, tc := range []struct {
		args, message string
		leak          bool
	}{
		{`{"when":"tomorrow"}`, `parsing time "tomorrow" as "2006-01-02T15:04:05Z07:00"`, true},
		{`{"when":"maybe"}`, `Expected boolean, received "maybe"`, true},
		{`{"n":1e39}`, `json: cannot unmarshal number 1e39 into Go struct field .n of type float32`, true},
		{`{"a":{"b":["deep value"]}}`, `Provided data: {"a":{"b":["deep value"]}}`, true},
		{`{"when":"tomorrow"}`, `/when: must be a date-time`, false},
		{`{"unit":"kelvin"}`, `must be one of celsius, kelvin`, false},
		{`{"n":100000000000000000000}`, `must be less than 100000000000000000000`, false},
		{`{"ok":"true"}`, `expected boolean, got string "true"`, false},
		{`{"when":"abc"}`, `unexpected "abc"`, false},
		{`{"when":"allow"}`, `/when: must match exactly one of the allowed shapes`, false},
		{`{"when":"12345"}`, `/when: 123456 is not a date-time`, false},
		{`{"when":"allow"}`, `/when: "allow" is not a date-time; allowed: none`, true},
		{`{"when":"allow"}`, `value=allow.`, true},
		{`{"when":"tomorrow"`, `unexpected end of JSON input after "tomorrow"`, false},
	} {
		c := &corpus.Case{Args: []byte(tc.args)}
		v := validator.Reject(validator.Issue{Path: "", Message: tc.message})
		detail, leak := leaked(c, basis{schema: newSchemaText(schema)}, v)
		if leak != tc.leak {
			t.Errorf("%s, message %q: leak %v (%s), want %v", tc.args, tc.message, leak, detail, tc.leak)
		}
	}
}

// TestUnclearAnswerToValidCallIsNoLeak: a valid (or implementation-defined) call the tool itself
// refuses in its own words ("Entity with name X not found") is the tool's output, not the gate's
// message; the same words for a distorted call, or a clear rejection of the valid call, are a leak.
func TestUnclearAnswerToValidCallIsNoLeak(t *testing.T) {
	msg := validator.Issue{Message: "Entity with name bbabba not found"}
	unclear := validator.Reject(msg)
	unclear.Unclear = true
	for _, tc := range []struct {
		expect corpus.Expect
		v      validator.Verdict
		leak   bool
	}{
		{corpus.Accept, unclear, false},
		{corpus.Either, unclear, false},
		{corpus.Reject, unclear, true},
		{corpus.Accept, validator.Reject(msg), true},
	} {
		c := &corpus.Case{Args: []byte(`{"entityName":"bbabba"}`), Expect: tc.expect}
		leak := false
		for _, f := range judge(c, basis{schema: newSchemaText(nil)}, tc.v, rules{}) {
			leak = leak || f.Kind == "leak"
		}
		if leak != tc.leak {
			t.Errorf("expect %s, unclear %v: leak %v, want %v", tc.expect, tc.v.Unclear, leak, tc.leak)
		}
	}
}

// TestMayRepeatHidesNoValue: the quick scan that spares the decoded walk says a message may
// repeat a value whenever it holds one of the arguments' strings (trimmed, escapes decoded,
// invalid UTF-8 read as the decoder reads it) or numbers as written, in any JSON text.
func TestMayRepeatHidesNoValue(t *testing.T) {
	texts := []string{
		`{"k":"  padded value  ","n":-1.5e+10,"a":[1234,"x\"y\u00e9z",{"deep":"inner text"}]}`,
		"{\"raw\":\"caf\xe9 bytes\", \"tab\" : \t\"spaced key\"}",
		`["\ud83d\ude00 emoji text", 12345678901234567890, true, null, "<html>&"]`,
	}
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.OneOf(rapid.Just[any](nil), rapid.Map(rapid.String(), func(s string) any { return s }),
			rapid.Map(rapid.Float64(), func(f float64) any { return f })).Draw(t, "leaf")
		tree := map[string]any{rapid.String().Draw(t, "key"): []any{v, map[string]any{"s": v}}}
		data, err := json.Marshal(tree)
		if err != nil {
			t.Skip(err)
		}
		texts := append(texts, string(data))
		for _, text := range texts {
			var doc any
			d := json.NewDecoder(strings.NewReader(text))
			d.UseNumber()
			if err := d.Decode(&doc); err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			for _, leaf := range leaves(doc) {
				if len(leaf) < minRepeated {
					continue
				}
				issues := []validator.Issue{{Message: "got «" + leaf + "» here"}}
				if !mayRepeat([]byte(text), issues) {
					t.Fatalf("%s: the scan misses the value %q", text, leaf)
				}
			}
		}
	})
}

// leaves are the strings (trimmed) and numbers (as written) of a decoded JSON value.
func leaves(v any) []string {
	switch v := v.(type) {
	case map[string]any:
		var out []string
		for _, e := range v {
			out = append(out, leaves(e)...)
		}
		return out
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, leaves(e)...)
		}
		return out
	case string:
		return []string{strings.TrimSpace(v)}
	case json.Number:
		return []string{string(v)}
	}
	return nil
}
