package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestCallParamsHead: a tools/call's params written after a modern session's callHead are the
// legacy params with that session's _meta spliced in first, byte for byte, and a legacy
// session's params are {"name":...,"arguments":...} as json.Compact writes the arguments.
func TestCallParamsHead(t *testing.T) {
	c := &Client{}
	c.setProtocol("2025-11-25", "initialize")
	c.setEra(eraLegacy)
	legacy := c.callHead()
	c.setProtocol("2026-07-28", "server/discover")
	c.setEra(eraModern)
	modern := c.callHead()
	var head struct {
		Meta map[string]any `json:"_meta"`
	}
	closed := append(bytes.TrimSuffix(bytes.Clone(modern), []byte(",")), '}')
	if err := json.Unmarshal(closed, &head); err != nil ||
		head.Meta[metaProtocolVersion] != "2026-07-28" {
		t.Fatalf("modern head %s: %v, _meta %v", modern, err, head.Meta)
	}
	name := []byte(`"read_file"`)
	sent := 0
	for _, text := range append(compactTexts, deepTexts...) {
		old, why := callParams(legacy, name, []byte(text))
		got, why2 := callParams(modern, name, []byte(text))
		if why != why2 || (old == nil) != (got == nil) {
			t.Fatalf("%.60q: legacy %q, modern %q", text, why, why2)
		}
		if old == nil {
			continue
		}
		sent++
		var want bytes.Buffer
		want.WriteString(`{"name":"read_file","arguments":`)
		if err := json.Compact(&want, []byte(text)); err != nil {
			t.Fatalf("%.60q sent, but json.Compact: %v", text, err)
		}
		want.WriteByte('}')
		if !bytes.Equal(old, want.Bytes()) {
			t.Errorf("%.60q: legacy params %.200s, want %.200s", text, old, want.Bytes())
		}
		if spliced := spliceMeta(old, metaFor("2026-07-28")); !bytes.Equal(got, spliced) {
			t.Errorf("%.60q: modern params %.200s, want %.200s", text, got, spliced)
		}
	}
	if sent < 7 {
		t.Errorf("only %d texts sent", sent)
	}
}
