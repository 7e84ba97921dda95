package mutators

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// tokensByDecoder finds the strings, numbers and literals of canonical JSON text (no
// whitespace) with encoding/json's decoder: the reference tokens must agree with.
func tokensByDecoder(b []byte) []token {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out []token
	for {
		start := int(dec.InputOffset())
		tk, err := dec.Token()
		if err != nil {
			return out
		}
		for start < len(b) && (b[start] == ',' || b[start] == ':') {
			start++ // the decoder reads separators with the token after them
		}
		end := int(dec.InputOffset())
		switch tk.(type) {
		case string:
			out = append(out, token{'"', start, end})
		case json.Number:
			out = append(out, token{'0', start, end})
		case bool, nil:
			out = append(out, token{'l', start, end})
		}
	}
}

// TestTokens: on canonical JSON texts with escapes, backslash runs and numbers inside strings,
// tokens finds the same spans as encoding/json's decoder.
func TestTokens(t *testing.T) {
	pieces := []string{`1`, `-0.5`, `1e+300`, `"2"`, `"a\"3"`, `"\\"`, `"\\\""`, `"-4"`, `true`, `false`, `null`, `[]`,
		`{}`, `"x\u0035"`, `"é\n"`}
	rapid.Check(t, func(t *rapid.T) {
		var parts []string
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 8).Draw(t, "pieces") {
			parts = append(parts, pieces[i])
		}
		v, err := jsonvalue.Parse([]byte("[" + strings.Join(parts, ",") + "]"))
		if err != nil {
			t.Fatal(err)
		}
		text := jsonvalue.MustMarshal(map[string]any{"a": v, `k"\`: v})
		if diff := cmp.Diff(tokensByDecoder(text), tokens(text), cmp.AllowUnexported(token{})); diff != "" {
			t.Fatalf("%s: tokens (-encoding/json +tokens):\n%s", text, diff)
		}
	})
}
