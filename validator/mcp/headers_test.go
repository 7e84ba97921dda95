package mcp

import (
	"strings"
	"testing"
)

func TestParseHeaders(t *testing.T) {
	env := map[string]string{"TOKEN": "s3cr3t-token-value", "TENANT": "acme"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	h, err := ParseHeaders([]string{"Authorization: Bearer $TOKEN", "X-Tenant:${TENANT}", "X-Price: $$5"}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if h.Get("Authorization") != "Bearer s3cr3t-token-value" || h.Get("X-Tenant") != "acme" ||
		h.Get("X-Price") != "$5" {
		t.Fatalf("headers %v", h)
	}
	for _, tc := range []struct{ spec, want string }{
		{"Authorization Bearer s3cr3t-token-value", "want 'NAME: VALUE'"},
		{"Bad Name: s3cr3t-token-value", "not a header name"},
		{"Authorization: Bearer $NOPE", "no variable NOPE"},
		{"X: a\r\nInjected: s3cr3t-token-value", "line break"},
	} {
		_, err := ParseHeaders([]string{tc.spec}, lookup)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%q: error %v, want one saying %q without the value", tc.spec, err, tc.want)
		}
	}
}

func TestParamHeaderAnnotations(t *testing.T) {
	for _, tc := range []struct{ schema, err string }{
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"integer",` +
			`"x-mcp-header":"B"}}}}}`, ""},
		{`{"type":"object","properties":{"x-mcp-header":{"type":"string"}}}`, ""},
		{`{"type":"object","properties":{"a":{"type":"number","x-mcp-header":"A"}}}`, "type"},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string",` +
			`"x-mcp-header":"a"}}}`, "twice"},
		{`{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}}`,
			"properties alone"},
		{`{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A B"}}}`, "not a header name"},
	} {
		_, err := paramHeaders([]byte(tc.schema))
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.schema, err, tc.err)
		}
	}
	hs, _ := paramHeaders([]byte(`{"type":"object","properties":{"w":{"type":"object",` +
		`"properties":{"r":{"type":"string","x-mcp-header":"Region"}}},"n":{"type":"integer","x-mcp-header":"N"}}}`))
	got := paramValues(hs, []byte(`{"w":{"r":"Zürich"},"n":42}`))
	if got["Mcp-Param-Region"] != "=?base64?WsO8cmljaA==?=" || got["Mcp-Param-N"] != "42" || len(got) != 2 {
		t.Fatalf("headers %v", got)
	}
	if got := paramValues(hs, []byte(`{"w":{"r":null},"n":[1]}`)); len(got) != 0 {
		t.Fatalf("null and an array: headers %v", got)
	}
}
