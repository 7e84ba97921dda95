package mcp

import (
	"net/http"
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
	if h.Get("Authorization") != "Bearer s3cr3t-token-value" || h.Get("X-Tenant") != "acme" || h.Get("X-Price") != "$5" {
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

func TestRedactor(t *testing.T) {
	r := newRedactor(http.Header{"Authorization": {"Bearer s3cr3t-token-value"}, "X-Short": {"abc"}})
	got := r.text(`invalid auth "Bearer s3cr3t-token-value"; token s3cr3t-token-value; abc stays`)
	if strings.Contains(got, "s3cr3t") || !strings.Contains(got, "abc stays") {
		t.Fatalf("redacted %q", got)
	}
}
