package mutators

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// tokensByByte is tokens as first written, one byte at a time: the reference the faster scan
// must agree with.
func tokensByByte(b []byte) []token {
	var out []token
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			j := i + 1
			for j < len(b) && b[j] != '"' {
				if b[j] == '\\' {
					j++
				}
				j++
			}
			out = append(out, token{'"', i, j + 1})
			i = j + 1
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(b) && strings.IndexByte("+-.eE0123456789", b[j]) >= 0 {
				j++
			}
			out = append(out, token{'0', i, j})
			i = j
		case c == 't' || c == 'f' || c == 'n':
			j := i
			for j < len(b) && b[j] >= 'a' && b[j] <= 'z' {
				j++
			}
			out = append(out, token{'l', i, j})
			i = j
		default:
			i++
		}
	}
	return out
}

// TestTokens: on canonical JSON texts with escapes, backslash runs and numbers inside strings,
// tokens finds the same spans as the byte-by-byte scan.
func TestTokens(t *testing.T) {
	pieces := []string{`1`, `-0.5`, `1e+300`, `"2"`, `"a\"3"`, `"\\"`, `"\\\""`, `"-4"`, `true`, `false`, `null`, `[]`, `{}`, `"x\u0035"`, `"é\n"`}
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
		if diff := cmp.Diff(tokensByByte(text), tokens(text), cmp.AllowUnexported(token{})); diff != "" {
			t.Fatalf("%s: tokens (-byte by byte +tokens):\n%s", text, diff)
		}
	})
}
