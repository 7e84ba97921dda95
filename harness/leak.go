package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/validator"
)

// minRepeated is the shortest argument value (in bytes) whose repetition in a message counts as
// a leak: shorter ones ("a", "20", "ok") turn up in messages by chance.
const minRepeated = 4

// leaked finds a message of the gate that hands the model's own text back, and says where: the
// planted canary, or any argument value of the call (a string, or a number as written) of
// minRepeated bytes or more that the tool's schema does not hold itself (an enum value, a bound,
// a pattern, a property name). Naming the place and what was expected corrects the model;
// repeating what it sent is a leak (shared/seeds), whether the call was valid or not.
func leaked(c *corpus.Case, b basis, v validator.Verdict) (string, bool) {
	if len(v.Issues) == 0 {
		return "", false
	}
	if c.Canary != "" {
		for _, is := range v.Issues {
			if strings.Contains(is.Message, c.Canary) {
				return fmt.Sprintf("message at %q repeats the argument value: %q", is.Path, is.Message), true
			}
		}
	}
	schema := b.schema
	if schema == nil {
		schema = newSchemaText(nil) // a basis made without a tool (tests)
	}
	for _, value := range ownValues(c.Args, schema) {
		for _, is := range v.Issues {
			if strings.Contains(is.Message, value) {
				return fmt.Sprintf("message at %q repeats the argument value %q: %q", is.Path, value, is.Message), true
			}
		}
	}
	return "", false
}

// ownValues are the values of the arguments text args that only the model can have written:
// its strings and numbers (as written) of minRepeated bytes or more with a letter or digit,
// neither true, false nor null, and not found in the tool's schema text. Text that is not JSON
// has none. They come in document order, object members by key, so that a report names the same
// value on every run.
func ownValues(args []byte, schema *schemaText) []string {
	d := json.NewDecoder(bytes.NewReader(args))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case string:
			s := strings.TrimSpace(v)
			if schema.ownText(s) && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		case json.Number:
			if s := string(v); schema.ownText(s) && !schema.numbers[exact(s)] && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	walk(v)
	return out
}

// maxExponent bounds the exponents exact reads: 1e400 is read, 1e999999999 is not.
const maxExponent = 1000

// schemaText is a tool's schema as the leak check reads it, made once a tool: its text, and the
// exact value (exact) of every number in it, so that a bound a message names is not taken for
// the value it equals, however each is written (1e20 and 100000000000000000000).
type schemaText struct {
	text    []byte
	numbers map[string]bool
}

func newSchemaText(schema []byte) *schemaText {
	return &schemaText{text: schema, numbers: schemaNumbers(schema)}
}

func schemaNumbers(schema []byte) map[string]bool {
	out := map[string]bool{}
	d := json.NewDecoder(bytes.NewReader(schema))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		if n, ok := tok.(json.Number); ok {
			out[exact(string(n))] = true
		}
	}
}

// exact is a JSON number's value in one canonical form; a number with an exponent beyond
// ±maxExponent (whose exact value would take that many digits) stays as written.
func exact(n string) string {
	if i := strings.IndexAny(n, "eE"); i >= 0 {
		if e, err := strconv.Atoi(strings.TrimPrefix(n[i+1:], "+")); err != nil || e > maxExponent || e < -maxExponent {
			return n
		}
	}
	r, ok := new(big.Rat).SetString(n)
	if !ok {
		return n
	}
	return r.RatString()
}

// ownText says whether s is long enough to be the model's own, and not the schema's.
func (schema *schemaText) ownText(s string) bool {
	if len(s) < minRepeated ||
		!strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null":
		return false
	}
	if bytes.Contains(schema.text, []byte(s)) {
		return false
	}
	q, _ := json.Marshal(s)
	return !bytes.Contains(schema.text, q[1:len(q)-1])
}
