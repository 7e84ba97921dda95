package mutators

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// TestSitesKnowTheirText: a Target's text is jsonvalue.Marshal's, and every site's span in it
// is the text of the site's value, so that a replacement's text can be spliced in (as confirm
// does) instead of written again. Every corpus tool, drawn values; and each case a
// replacement made is the text of the value it was built from.
func TestSitesKnowTheirText(t *testing.T) {
	for _, tl := range sample.Tools().Tools {
		gk, gen := gentest.New(t, tl)
		ctx := NewContext(gk, nil)
		rapid.Check(t, func(rt *rapid.T) {
			v, ok := gen.Draw(rt)
			if !ok {
				rt.Skip("no value")
			}
			tg := ctx.Target(v)
			if want := jsonvalue.MustMarshal(v); !bytes.Equal(tg.Text, want) {
				rt.Fatalf("%s: Target text\n%s\nwant\n%s", tl.Name, tg.Text, want)
			}
			if got, want := tg.wrapped("arguments")(),
				jsonvalue.MustMarshal(map[string]any{"arguments": v}); !bytes.Equal(got, want) {
				rt.Fatalf("%s: wrapped %q, want %q", tl.Name, got, want)
			}
			for _, s := range tg.sites {
				if got, want := tg.Text[s.start:s.end], jsonvalue.MustMarshal(s.value); !bytes.Equal(got, want) {
					rt.Fatalf("%s %s: span %q, want %q", tl.Name, s.path, got, want)
				}
				c := candidate{build: at(tg, s, "tpc-x"), replaces: s, with: "tpc-x"}
				if got, want := tg.text(c, c.build()), jsonvalue.MustMarshal(c.build()); !bytes.Equal(got, want) {
					rt.Fatalf("%s %s: spliced %q, want %q", tl.Name, s.path, got, want)
				}
				obj, isObj := s.value.(map[string]any)
				if !isObj {
					continue
				}
				// Every member left out, and keys added before, between and after the others.
				for k := range obj {
					want := jsonvalue.MustMarshal(editedObject(tg.Value, s.tokens(),
						func(m map[string]any) { delete(m, k) }))
					if got := tg.withoutKey(s, k)(); got != nil && !bytes.Equal(got, want) {
						rt.Fatalf("%s %s without %q: %q, want %q", tl.Name, s.path, k, got, want)
					}
				}
				for _, k := range []string{"", "A", "m", "zzzz", "\u00e9"} {
					if _, present := obj[k]; present {
						continue
					}
					want := jsonvalue.MustMarshal(editedObject(tg.Value, s.tokens(),
						func(m map[string]any) { m[k] = []any{1, "x"} }))
					if got := tg.withKey(s, k, []any{1, "x"})(); got != nil && !bytes.Equal(got, want) {
						rt.Fatalf("%s %s with %q: %q, want %q", tl.Name, s.path, k, got, want)
					}
				}
			}
		})
	}
}
