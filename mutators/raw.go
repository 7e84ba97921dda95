package mutators

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// Raw-text classes are judged by the JSON grammar (RFC 8259) and the plain-object rule of the
// gate contract, not by the schema.

// token is a span of JSON text: a string (with its quotes), a number, or a literal.
type token struct {
	kind       byte // '"', '0', 'l'
	start, end int
}

// tokens scans JSON text (as Marshal writes it) for strings, numbers and literals.
func tokens(b []byte) []token {
	var out []token
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case c == '"':
			j := stringEnd(b, i)
			out = append(out, token{'"', i, j + 1})
			i = j + 1
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(b) &&
				(b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' ||
					b[j] == '+' || b[j] == '-') {
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

// stringEnd returns where the string that opens at b[i] closes: the first quote after i that
// no odd run of backslashes escapes (len(b) when none does).
func stringEnd(b []byte, i int) int {
	for {
		q := bytes.IndexByte(b[i+1:], '"')
		if q < 0 {
			return len(b)
		}
		i += 1 + q
		n := 0
		for b[i-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return i
		}
	}
}

func splice(b []byte, start, end int, repl string) []byte {
	out := make([]byte, 0, len(b)+len(repl))
	out = append(out, b[:start]...)
	out = append(out, repl...)
	return append(out, b[end:]...)
}

type rawCandidate struct {
	text    func() []byte // built only for the candidate drawn
	variant string
	reason  func() string
}

// fixed is a text or a reason that needs no building.
func fixed[T any](x T) func() T { return func() T { return x } }

// pickRaw draws one of the candidates, uniformly.
func pickRaw(t *rapid.T, class corpus.Class, keyword string, expect corpus.Expect,
	cands []rawCandidate) (corpus.Case, bool) {
	if len(cands) == 0 {
		return corpus.Case{}, false
	}
	c := cands[draw.Int(t, 0, len(cands)-1, "variant")]
	return corpus.Case{Args: c.text(), Class: class, Variant: c.variant, Path: "", Keyword: keyword,
		Reason: c.reason(), Expect: expect, Raw: true}, true
}

// ---- root_not_object: valid JSON whose root is not an object.

// RootNotObject is the class of valid JSON whose root is not an object.
const RootNotObject corpus.Class = "root_not_object"

// rootNotObjectClass is read back in Classify's root layer (readRoot).
func rootNotObjectClass() Definition {
	return Definition{Name: RootNotObject, Mutator: rootNotObject{},
		Doc:   "the arguments as an array, null, a double-encoded string, `\"\"`, `[]`, `true`",
		Audit: AuditHints{Analyse: rootNotObjectHints, Probe: rootNotObjectProbe, Anchor: AtRoot}}
}

type rootNotObject struct{}

func (rootNotObject) Class() corpus.Class { return RootNotObject }

func (rootNotObject) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	text := tg.Text
	cands := []rawCandidate{
		{func() []byte { return append(append([]byte("["), text...), ']') }, "array",
			fixed("the arguments wrapped in an array")},
		{fixed([]byte("null")), "null", fixed("null instead of an arguments object")},
		{func() []byte { return jsonvalue.AppendString(nil, string(text)) }, "double-encoded",
			fixed("the arguments object JSON-encoded a second time, into a string")},
		{fixed([]byte(`""`)), "empty-string", fixed("an empty string instead of an arguments object")},
		{fixed([]byte("[]")), "empty-array", fixed("an empty array instead of an arguments object")},
		{fixed([]byte("true")), "boolean", fixed("true instead of an arguments object")},
	}
	m, ok := pickRaw(t, RootNotObject, "type", corpus.Reject, cands)
	// Never: each candidate is grammatical. (encoding/json's scanner, which allocates nothing,
	// agrees with the strict parser on valid UTF-8 this shallow.)
	if ok && !json.Valid(m.Args) {
		return corpus.Case{}, false
	}
	return m, ok
}

// ---- malformed_json: text that is not JSON at all.

// MalformedJSON is the class of text that is not JSON at all.
const MalformedJSON corpus.Class = "malformed_json"

// malformedClass is read back in Classify's text layer (readText).
func malformedClass() Definition {
	return Definition{Name: MalformedJSON, Mutator: malformed{},
		Doc: "truncated, a trailing comma, single quotes, Python `True`/`None`, `NaN`/`Infinity`, unquoted keys, " +
			"comments, a markdown fence, leading prose, a byte that is not UTF-8",
		Audit: AuditHints{Analyse: malformedHints, Probe: malformedProbe, Anchor: AtRoot}}
}

type malformed struct{}

func (malformed) Class() corpus.Class { return MalformedJSON }

func (malformed) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	b := tg.Text
	toks := tokens(b)
	var cands []rawCandidate
	// Every draw is made here, in a fixed order; the texts and reasons are built only for the
	// candidate drawn.
	add := func(text func() []byte, variant string, reason func() string) {
		cands = append(cands, rawCandidate{text, variant, reason})
	}
	if len(b) > 1 {
		cut := draw.Int(t, 1, len(b)-1, "cut")
		add(func() []byte { return append([]byte{}, b[:cut]...) }, "truncated",
			because("the text cut off after %d of %d bytes", cut, len(b)))
	}
	add(func() []byte { return splice(b, len(b)-1, len(b)-1, ",") }, "trailing-comma",
		fixed("a comma before the closing brace"))
	if bytes.Contains(b, []byte(`"`)) {
		add(func() []byte { return bytes.ReplaceAll(b, []byte(`"`), []byte(`'`)) }, "single-quotes",
			fixed("single quotes instead of double quotes"))
	}
	// Python literals, unquoted keys, NaN, invalid UTF-8: need a token of the right kind.
	lits, nums, strs := ofKind(toks, 'l'), ofKind(toks, '0'), ofKind(toks, '"')
	if len(lits) > 0 {
		tk := lits[draw.Int(t, 0, len(lits)-1, "literal")]
		py := map[byte]string{'t': "True", 'f': "False", 'n': "None"}[b[tk.start]]
		add(func() []byte { return splice(b, tk.start, tk.end, py) }, "python-literal",
			because("the Python literal %s", py))
	}
	if len(nums) > 0 {
		tk := nums[draw.Int(t, 0, len(nums)-1, "number")]
		nan := []string{"NaN", "Infinity", "-Infinity"}[draw.Int(t, 0, 2, "nan")]
		add(func() []byte { return splice(b, tk.start, tk.end, nan) }, "nan",
			because("%s, which JSON has no syntax for", nan))
	}
	if len(b) > 2 && b[1] == '"' {
		end := bytes.IndexByte(b[2:], '"') + 2
		add(func() []byte { return splice(b, 1, end+1, string(b[2:end])) }, "unquoted-key",
			fixed("an object key without quotes, as in JavaScript"))
		add(func() []byte { return splice(b, 1, 1, "/* arguments */ ") }, "comment",
			fixed("a /* comment */ inside the object"))
	}
	if len(strs) > 0 {
		tk := strs[draw.Int(t, 0, len(strs)-1, "string")]
		add(func() []byte { return splice(b, tk.start+1, tk.start+1, "\xff") }, "invalid-utf8",
			fixed("a byte that is not UTF-8 inside a string"))
	}
	for _, w := range textAround {
		add(func() []byte { return append(append(append([]byte{}, w.before...), b...), w.after...) },
			w.variant, fixed(w.reason))
	}
	m, ok := pickRaw(t, MalformedJSON, "json", corpus.Reject, cands)
	// The oracle for text: RFC 8259 must reject it. What encoding/json's scanner rejects (it
	// allocates nothing), the strict parser rejects too; what it accepts may still be invalid
	// UTF-8, which only the strict parser catches.
	if ok && json.Valid(m.Args) && jsonvalue.Valid(m.Args) {
		return corpus.Case{}, false
	}
	return m, ok
}

// ---- implementation_defined: inputs RFC 8259 leaves to the implementation. Recorded, never
// failed; a crash or a hang on them is still a finding.

// textAround are the malformed_json variants that write something around the JSON text.
var textAround = []struct{ before, after, variant, reason string }{
	{"```json\n", "\n```", "markdown-fence", "the JSON inside a markdown code fence"},
	{"", " // done", "line-comment", "a // comment after the object"},
	{"Here are the arguments: ", "", "leading-prose", "prose before the JSON"},
}

// ofKind returns the tokens of one kind.
func ofKind(toks []token, kind byte) []token {
	var out []token
	for _, tk := range toks {
		if tk.kind == kind {
			out = append(out, tk)
		}
	}
	return out
}

// ImplementationDef is the class of what RFC 8259 leaves to implementations.
const ImplementationDef corpus.Class = "implementation_defined"

// implementationDefinedClass is read back in Classify's text layer (readText), and not audited:
// its cases owe no verdict.
func implementationDefinedClass() Definition {
	return Definition{Name: ImplementationDef, Mutator: implementationDefined{},
		Doc: "duplicate keys, numbers beyond every float, 5000-deep nesting, a byte order mark, a lone surrogate: " +
			"recorded as `either`, never failed, but a crash or hang on them is a finding"}
}

type implementationDefined struct{}

func (implementationDefined) Class() corpus.Class { return ImplementationDef }

func (implementationDefined) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	b := tg.Text
	// The variants that apply, each built only if drawn.
	type variant struct {
		name, reason string
		build        func() []byte
	}
	var vs []variant
	if len(b) > 2 && b[1] == '"' {
		if end := memberEnd(b); end > 0 {
			vs = append(vs, variant{"duplicate-key", "the first member written twice: a repeated key", func() []byte {
				// {"k":v,...} -> {"k":v,"k":v,...}
				return []byte("{" + string(b[1:end]) + "," + string(b[1:]))
			}})
		}
	}
	var num *token
	jsonvalue.NumberTokens(b, func(start, end int) bool {
		num = &token{'0', start, end}
		return false
	})
	if num != nil {
		vs = append(vs, variant{"huge-number", "a number beyond every float and integer type", func() []byte {
			huge := []string{"1e400", "123456789012345678901234567890123456789", "-1e-400",
				"1" + strings.Repeat("0", 400)}[draw.Int(t, 0, 3, "huge")]
			return splice(b, num.start, num.end, huge)
		}})
	}
	vs = append(vs, variant{"deep-nesting", fmt.Sprintf("arrays nested %d deep", deepNestingDepth), func() []byte {
		return deepNesting // the same text every time: never written to (gates must not write)
	}})
	vs = append(vs, variant{"byte-order-mark", "a UTF-8 byte order mark before the JSON", func() []byte {
		return append([]byte("\ufeff"), b...)
	}})
	vs = append(vs, variant{"lone-surrogate", "a key that is a lone UTF-16 surrogate escape", func() []byte {
		sep := ","
		if len(b) <= 2 {
			sep = ""
		}
		return splice(b, len(b)-1, len(b)-1, sep+`"\ud800":1`)
	}})
	v := vs[draw.Int(t, 0, len(vs)-1, "variant")]
	return corpus.Case{Args: v.build(), Class: ImplementationDef, Variant: v.name, Path: "", Reason: v.reason,
		Expect: corpus.Either, Raw: true}, true
}

// memberEnd returns the index just past the first member of a compact object text.
func memberEnd(b []byte) int {
	depth := 0
	inStr := false
	for i := 1; i < len(b); i++ {
		c := b[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return i
			}
			depth--
		case c == ',' && depth == 0:
			return i
		}
	}
	return -1
}

// deepNestingDepth is how deep the deep-nesting text nests arrays.
const deepNestingDepth = 5000

// deepNesting is the deep-nesting text, made once: 10 KB every case would cost more than the
// rest of the case.
var deepNesting = []byte(`{"deep":` + strings.Repeat("[", deepNestingDepth) +
	strings.Repeat("]", deepNestingDepth) + `}`)

// rootNotObjectHints: the parse gate requires a plain object at the root.
func rootNotObjectHints(p *SchemaPlace) []Hint {
	if !p.Root {
		return nil
	}
	return caught("the parse gate requires a plain object, whatever the schema says")
}

// rootNotObjectProbe sends the arguments wrapped in an array, and as a JSON string.
func rootNotObjectProbe(p *Probe) {
	if len(p.Loc) == 0 {
		p.PutArgs([]byte("["+string(p.Text)+"]"), "", "array", "the arguments object wrapped in an array")
		p.PutArgs(jsonvalue.MustMarshal(string(p.Text)), "", "string", "the arguments object sent as a JSON string")
	}
}

// malformedHints: the parse gate requires JSON text.
func malformedHints(p *SchemaPlace) []Hint {
	if !p.Root {
		return nil
	}
	return caught("the parse gate requires JSON text (RFC 8259)")
}

// malformedProbe cuts the argument text short by its last byte.
func malformedProbe(p *Probe) {
	if len(p.Loc) == 0 && len(p.Text) > 1 {
		p.PutArgs(p.Text[:len(p.Text)-1], "", "truncated", "the argument text cut short by its last byte")
	}
}
