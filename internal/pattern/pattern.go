package pattern

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
)

// Warning is one pattern of a schema with syntax only some dialects have.
type Warning struct {
	Pointer string // JSON Pointer of the pattern in the schema (a "pattern" member or a patternProperties key)
	Pattern string
	Problem string
}

func (w Warning) String() string {
	at := w.Pointer
	if at == "" {
		at = `""`
	}
	return fmt.Sprintf("pattern %s at %s: %s", strconv.Quote(w.Pattern), at, w.Problem)
}

// The problems, one sentence each.
const (
	inlineFlags = "inline flags such as (?i) are RE2 and Python syntax; ECMA-262 (JSON Schema's dialect: Ajv, " +
		"TypeBox) rejects them"
	pythonNamed = "(?P<name>...) is RE2 and Python syntax; ECMA-262 rejects it (it writes (?<name>...))"
	ecmaNamed   = "(?<name>...) is ECMA-262 and RE2 syntax; Python's re rejects it (it writes (?P<name>...))"
	lookaround  = "lookahead and lookbehind are ECMA-262 and Python syntax; RE2 rejects them, so Go validators on " +
		"regexp refuse the tool"
	backref = "backreferences are ECMA-262 and Python syntax; RE2 rejects them, so Go validators on regexp " +
		"refuse the tool"
	atomic      = "atomic groups and possessive quantifiers are Python 3.11+ syntax only; ECMA-262 and RE2 reject them"
	comment     = "(?#...) comments are Python syntax only"
	unicodeProp = `\p{...} is ECMA-262 syntax only with the u flag (Ajv and TypeBox set it; without it \p is a ` +
		`letter p), RE2 syntax with other property names (scripts as \p{Greek}, where ECMA-262 wants ` +
		`\p{Script=Greek}), and Python's re rejects it`
	shortProp = `\pL (a property without braces) is RE2 syntax only`
	anchors   = `\A, \z and \Z are not ECMA-262 (with the u flag a syntax error, without it a plain letter); \z is ` +
		`RE2 only, \Z Python only`
	quoting    = `\Q...\E quoting is RE2 syntax only`
	hexBrace   = `\x{...} is RE2 syntax only (ECMA-262 with the u flag writes \u{...})`
	uBrace     = `\u{...} is ECMA-262 syntax with the u flag only; RE2 (Go validators) and Python reject it`
	uEscape    = `\uXXXX is ECMA-262 and Python syntax; RE2 rejects it, so Go validators on regexp refuse the tool`
	controlEsc = `\cX control escapes are ECMA-262 syntax only; RE2 and Python reject them`
	posixClass = "[[:alpha:]] POSIX classes are RE2 syntax only; ECMA-262 and Python read them as a class of the " +
		"letters ':', 'a', 'l', ..."
	emptyClass = "[] and [^] are the empty and the full class in ECMA-262; RE2 and Python read the ] as a member " +
		"and the class goes on"
	notRE2 = "RE2 cannot compile it, so Go validators on regexp refuse the tool: "
)

// Problems lists the syntax in src that not every dialect has (or reads alike), in the order
// first met, each once. A pattern every dialect reads alike has none.
func Problems(src string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	inClass := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		rest := src[i+1:]
		switch {
		case c == '\\' && i+1 < len(src):
			e := src[i+1]
			if p := escapeProblem(src, i, inClass); p != "" {
				add(p)
			}
			i++ // the escaped character
			// The braces of \p{..}, \x{..}, \u{..} and the name of \k<..> are part of the escape.
			if strings.IndexByte("pPxuk", e) >= 0 && i+1 < len(src) &&
				(src[i+1] == '{' || (e == 'k' && src[i+1] == '<')) {
				if end := strings.IndexAny(src[i+1:], "}>"); end >= 0 {
					i += 1 + end
				}
			}
		case inClass:
			if strings.HasPrefix(src[i:], "[:") && strings.Contains(rest, ":]") {
				add(posixClass)
			}
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			j := i + 1
			if j < len(src) && src[j] == '^' {
				j++
			}
			if j < len(src) && src[j] == ']' {
				add(emptyClass)
				i = j // RE2 and Python: a literal ] member; the class goes on
			} else if strings.HasPrefix(src[j:], "[:") && strings.Contains(src[j:], ":]") {
				add(posixClass)
			}
		case c == '(' && strings.HasPrefix(rest, "?"):
			if p := groupProblem(rest[1:]); p != "" {
				add(p)
			}
		case (c == '*' || c == '+' || c == '?' || (c == '}' && countedEnd.MatchString(src[:i+1]))) &&
			strings.HasPrefix(rest, "+") && i > 0:
			add(atomic)
		}
	}
	if _, err := regexp.Compile(ToRE2(src)); err != nil && !saidRE2Rejects(out) {
		add(notRE2 + err.Error())
	}
	return out
}

// escapeProblem is the problem of the escape at src[i] ("" if none).
func escapeProblem(src string, i int, inClass bool) string {
	e := src[i+1]
	switch {
	case e == 'p' || e == 'P':
		if strings.HasPrefix(src[i+2:], "{") {
			return unicodeProp
		}
		return shortProp
	case e == 'A' || e == 'z' || e == 'Z':
		return anchors
	case e == 'Q':
		return quoting
	case e == 'x' && strings.HasPrefix(src[i+2:], "{"):
		return hexBrace
	case e == 'u' && strings.HasPrefix(src[i+2:], "{"):
		return uBrace
	case e == 'u':
		return uEscape
	case e == 'c' && i+2 < len(src) && isLetter(src[i+2]):
		return controlEsc
	case e >= '1' && e <= '9' && !inClass:
		return backref
	case e == 'k' && strings.HasPrefix(src[i+2:], "<"):
		return backref
	}
	return ""
}

// groupProblem is the problem of a group that starts "(?" followed by g ("" if none).
func groupProblem(g string) string {
	switch {
	case strings.HasPrefix(g, "=") || strings.HasPrefix(g, "!") || strings.HasPrefix(g, "<=") ||
		strings.HasPrefix(g, "<!"):
		return lookaround
	case strings.HasPrefix(g, "P<"):
		return pythonNamed
	case strings.HasPrefix(g, "P=") || strings.HasPrefix(g, "P>"):
		return backref
	case strings.HasPrefix(g, "<"):
		return ecmaNamed
	case strings.HasPrefix(g, ">"):
		return atomic
	case strings.HasPrefix(g, "#"):
		return comment
	case flagGroup(g):
		return inlineFlags
	}
	return ""
}

// saidRE2Rejects reports whether one of the problems already says that RE2 cannot compile the
// pattern.
func saidRE2Rejects(problems []string) bool {
	for _, p := range problems {
		if p == lookaround || p == backref {
			return true
		}
	}
	return false
}

// countedEnd matches text that ends in a counted quantifier {n}, {n,} or {n,m}.
var countedEnd = regexp.MustCompile(`\{[0-9]+(,[0-9]*)?\}$`)

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// flagGroup reports whether g (the text after "(?") starts inline flags: letters of imsuxU
// and '-', then ')' or ':'.
func flagGroup(g string) bool {
	n := 0
	for n < len(g) && strings.IndexByte("imsuxUaL-", g[n]) >= 0 {
		n++
	}
	return n > 0 && n < len(g) && (g[n] == ')' || g[n] == ':')
}

// Warnings lists the patterns of a JSON Schema (every "pattern" string and every
// patternProperties key, outside enum, const, default and examples values) with syntax not
// every dialect has, in document order of their JSON Pointers. A schema that is not JSON has none.
func Warnings(schema json.RawMessage) []Warning {
	var v any
	if err := json.Unmarshal(schema, &v); err != nil {
		return nil
	}
	var out []Warning
	schemawalk.Keywords(v, func(_ map[string]any, k string, x any, at *schemawalk.Path) bool {
		switch k {
		case "pattern":
			if s, ok := x.(string); ok {
				for _, p := range Problems(s) {
					out = append(out, Warning{Pointer: at.String(), Pattern: s, Problem: p})
				}
			}
		case "patternProperties":
			if m, ok := x.(map[string]any); ok {
				for _, pk := range slices.Sorted(maps.Keys(m)) {
					for _, p := range Problems(pk) {
						out = append(out, Warning{Pointer: at.String() + "/" + jsonvalue.EscapeToken(pk),
							Pattern: pk, Problem: p})
					}
				}
			}
		}
		return true
	})
	return out
}

// ToRE2 rewrites the \u escapes of an ECMA-262 pattern as RE2 \x{...} escapes (surrogate pairs
// joined): the form RE2 compiles, from which toolproof's generator builds strings.
func ToRE2(src string) string {
	if !strings.Contains(src, `\u`) {
		return src
	}
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\\' || i+1 >= len(src) {
			b.WriteByte(c)
			continue
		}
		if src[i+1] != 'u' {
			b.WriteByte(c)
			b.WriteByte(src[i+1]) // any other escape, kept as it is (an escaped backslash too)
			i++
			continue
		}
		// \u{X...}
		if i+2 < len(src) && src[i+2] == '{' {
			if end := strings.IndexByte(src[i+3:], '}'); end > 0 {
				if _, err := strconv.ParseUint(src[i+3:i+3+end], 16, 32); err == nil {
					fmt.Fprintf(&b, `\x{%s}`, src[i+3:i+3+end])
					i += 3 + end
					continue
				}
			}
		}
		// \uXXXX, and a surrogate pair \uD83D\uDE00 as one code point.
		if r, ok := hex4(src, i+2); ok {
			if utf16.IsSurrogate(rune(r)) && strings.HasPrefix(src[i+6:], `\u`) {
				if r2, ok := hex4(src, i+8); ok {
					if cp := utf16.DecodeRune(rune(r), rune(r2)); cp != '\uFFFD' {
						fmt.Fprintf(&b, `\x{%X}`, cp)
						i += 11
						continue
					}
				}
			}
			fmt.Fprintf(&b, `\x{%04X}`, r)
			i += 5
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// hex4 reads four hex digits at src[i:].
func hex4(src string, i int) (uint64, bool) {
	if i+4 > len(src) {
		return 0, false
	}
	v, err := strconv.ParseUint(src[i:i+4], 16, 32)
	return v, err == nil
}
