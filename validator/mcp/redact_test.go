package mcp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Every header value is replaced, whatever its length: a long word wherever it occurs, a short
// one (under minSecret bytes) as a whole word only; the Authorization scheme stays.
func TestRedactor(t *testing.T) {
	r := newRedactor(http.Header{"Authorization": {"Bearer s3cr3t-token-value"}, "X-Short": {"abc"},
		"X-Tenant": {"ab"}, "X-Flag": {"1"}})
	for _, tc := range []struct{ in, want string }{
		{`invalid auth "Bearer s3cr3t-token-value"; token s3cr3t-token-value`,
			`invalid auth "[header value]"; token [header value]`},
		{"xs3cr3t-token-valuex", "x[header value]x"},
		{"abc stays? no: abc, abcd and xabc stay", "[header value] stays? no: [header value], abcd and xabc stay"},
		{"tenant=ab; abba, lab, ab_c", "tenant=[header value]; abba, lab, ab_c"},
		{"flag 1 of 10, 1.5, 21", "flag [header value] of 10, [header value].5, 21"},
		{"Bearer realm=fake", "Bearer realm=fake"},
		{"a value [header value]", "a value [header value]"},
	} {
		if got := r.text(tc.in); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// A JSON answer keeps its structure: the secrets are replaced inside its strings only (a header
// value "1" leaves "id":1 alone), escaped forms included.
func TestRedactorKeepsJSON(t *testing.T) {
	r := newRedactor(http.Header{"X-Flag": {"1"}, "X-Key": {`k"ey-s3cr3t`}, "X-Mode": {"true"}})
	in := `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"flag 1, key ` +
		`k\"ey-s3cr3t, mode true"}]}}`
	out := r.message([]byte(in))
	var m struct {
		ID     int `json:"id"`
		Result struct {
			IsError bool `json:"isError"`
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal(out, &m); err != nil || m.ID != 1 || !m.Result.IsError || len(m.Result.Content) != 1 {
		t.Fatalf("%s: %v", out, err)
	}
	if got := m.Result.Content[0].Text; got != "flag [header value], key [header value], mode [header value]" {
		t.Errorf("text %q", got)
	}
	if got := string(r.message([]byte("not JSON: k\"ey-s3cr3t"))); got != "not JSON: [header value]" {
		t.Errorf("plain text %q", got)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:pass@host:8080/mcp?api_key=k1&x=2#frag": "http://user:<redacted>@host:" +
			"8080/mcp?api_key=<redacted>&x=<redacted>",
		"https://ghp_token@host/mcp": "https://<redacted>@host/mcp",
		"https://host/mcp?TOKEN":     "https://host/mcp?<redacted>",
		"https://host/mcp":           "https://host/mcp",
		"::not a url":                "<redacted>",
	} {
		if got := RedactURL(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

func TestRedactHeaderSpec(t *testing.T) {
	for in, want := range map[string]string{
		"Authorization: Bearer sk-123":      "Authorization: Bearer <redacted>",
		"Authorization: Bearer $TOKEN":      "Authorization: Bearer $TOKEN",
		"Authorization: sk-123":             "Authorization: <redacted>",
		"X-Api-Key:${KEY}":                  "X-Api-Key: ${KEY}",
		"X-Tenant: a":                       "X-Tenant: <redacted>",
		"X-Both: pre$KEY":                   "X-Both: <redacted>",
		"Authorization Bearer sk-123":       "<redacted>",
		"Proxy-Authorization: Basic dXNlcg": "Proxy-Authorization: Basic <redacted>",
	} {
		if got := RedactHeaderSpec(in); got != want || strings.Contains(got, "sk-123") {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
