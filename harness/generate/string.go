package generate

import (
	"fmt"
	"regexp/syntax"
	"slices"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
	dialect "github.com/toolproof/toolproof/internal/pattern"
)

// strPlan is the merged string constraints of a conjunction. Lengths are in runes.
type strPlan struct {
	minLen, maxLen int // maxLen < 0: unbounded
	patterns       []*pattern
	format         string // one asserted format with a generator ("" for none)
	formats        []*jsonschema.Format
	check          bool // more than one source of constraints: filter the draws
	// fallback: the strings of the conjunction's examples and default that meet every
	// constraint, drawn when no string could be built (a pattern the generator cannot construct).
	fallback []string
}

type pattern struct {
	src   string
	loc   string            // the schema's location, for reasons
	match func(string) bool // the oracle's engine (ECMA-262): the judge of every string built
	syn   *syntax.Regexp    // what strings are built from: the pattern in RE2, lookarounds taken out; nil: none can be
	ahead []*pattern        // the parts the positive lookaheads want somewhere in the string
	avoid shorthands        // the shorthand classes the source uses: their runes are drawn with care
	// built and failed count the strings built for the pattern that met the plan, and those that
	// did not (Generator.Stats' Unbuilt).
	built, failed atomic.Int64
}

func planString(conj []*jsonschema.Schema) (*strPlan, string) {
	p := &strPlan{maxLen: -1}
	unbuilt := "" // why a pattern cannot be built from
	for _, s := range conj {
		if s.MinLength != nil && *s.MinLength > p.minLen {
			p.minLen = *s.MinLength
		}
		if s.MaxLength != nil && (p.maxLen < 0 || *s.MaxLength < p.maxLen) {
			p.maxLen = *s.MaxLength
		}
		if s.Pattern != nil {
			pt, err := newPattern(s.Pattern)
			if err != nil {
				pt = &pattern{src: s.Pattern.String(), match: s.Pattern.MatchString}
				unbuilt = fmt.Sprintf("pattern %q at %s: %v", pt.src, patternPlace(s.Location), err)
			}
			pt.loc = patternPlace(s.Location)
			p.patterns = append(p.patterns, pt)
		}
		if s.Format != nil {
			p.formats = append(p.formats, s.Format)
			if _, ok := formatGens[s.Format.Name]; ok && p.format == "" {
				p.format = s.Format.Name
			}
		}
	}
	if p.maxLen >= 0 && p.minLen > p.maxLen {
		return nil, "minLength is above maxLength"
	}
	sources := len(p.patterns)
	if p.format != "" {
		sources++
	}
	if sources > 1 || (sources == 1 && (p.minLen > 0 || p.maxLen >= 0)) || len(p.formats) > 0 {
		p.check = true
	}
	if len(p.patterns) > 0 {
		p.fallback = p.examples(conj)
	}
	if unbuilt != "" && len(p.fallback) == 0 {
		return nil, unbuilt + "; " + giveAnExample
	}
	return p, ""
}

// patternPlace is the JSON Pointer of a schema's pattern keyword within its document, from the
// schema's location ("mem://toolproof/t.json#/properties/code" gives "/properties/code/pattern").
func patternPlace(loc string) string {
	if _, frag, ok := strings.Cut(loc, "#"); ok {
		loc = frag
	}
	return loc + "/pattern"
}

// cannotConstruct is the words of every reason that names a pattern the generator cannot
// construct a string for: a limit of the generator, not of the schema (New, ErrCannotConstruct).
const cannotConstruct = "the generator cannot construct a string for"

// giveAnExample says what makes a tool with a pattern the generator cannot construct checked.
const giveAnExample = `a limit of toolproof's generator, not of the schema: a string the pattern matches ` +
	`in the property's "examples" (or "default") is drawn instead`

// examples is the strings of the conjunction's examples and defaults that meet the plan, each
// once, in schema order.
func (p *strPlan) examples(conj []*jsonschema.Schema) []string {
	var out []string
	add := func(v any) {
		if s, ok := v.(string); ok && p.ok(s) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, s := range conj {
		for _, e := range s.Examples {
			add(e)
		}
		if s.Default != nil {
			add(*s.Default)
		}
	}
	return out
}

// newPattern prepares the strings of a compiled pattern: built from its RE2 form (the ECMA-262
// \u escapes, property escapes, \cX, [^] and [] rewritten, lookarounds taken out, the positive
// lookaheads' parts put in, a copy of the group for each backreference), each judged by re
// itself. A pattern RE2 still cannot parse then is an error.
func newPattern(re jsonschema.Regexp) (*pattern, error) {
	src := re.String()
	pt, err := buildable(src)
	if err != nil {
		base, ahead := withoutLookarounds(withGroupsForBackrefs(src))
		if pt, err = buildable(base); err != nil {
			return nil, fmt.Errorf("%s it (%v)", cannotConstruct, err)
		}
		for _, a := range ahead {
			if ap, err := buildable(a); err == nil {
				pt.ahead = append(pt.ahead, ap)
			}
		}
	}
	pt.src, pt.match = src, re.MatchString
	return pt, nil
}

// buildable is src as the generator builds strings from it: parsed as RE2 after the ECMA-262
// \u escapes, property escapes, \cX, [^] and [] are rewritten.
func buildable(src string) (*pattern, error) {
	syn, err := syntax.Parse(ecmaClasses(dialect.ToRE2(src)), syntax.Perl)
	if err != nil {
		return nil, err
	}
	return &pattern{src: src, syn: syn.Simplify(), avoid: shorthandsOf(src)}, nil
}

// shorthands records which of the classes whose members differ between regex dialects a
// pattern's source names: \s \S, \w \W \b \B, \d \D.
type shorthands struct{ space, word, digit bool }

// shorthandsOf scans a pattern's source for the shorthand classes. RE2 expands them before
// the generator sees the syntax tree, so they are read from the text.
func shorthandsOf(src string) shorthands {
	var sh shorthands
	for i := 0; i+1 < len(src); i++ {
		if src[i] != '\\' {
			continue
		}
		i++
		switch src[i] {
		case 's', 'S':
			sh.space = true
		case 'w', 'W', 'b', 'B':
			sh.word = true
		case 'd', 'D':
			sh.digit = true
		}
	}
	return sh
}

// disagree reports whether the regex dialects a JSON Schema pattern may be run in (ECMA-262
// with and without the u flag, as JavaScript validators compile it; Python's re, as
// python-jsonschema uses it; RE2, the oracle) could read r differently, where r is drawn for
// a class or '.' of this pattern. Such runes are never drawn there, so that a generated valid
// string does not depend on the dialect:
//   - always: surrogates, astral runes (two UTF-16 units, which '.' and classes count
//     differently without the u flag), line terminators other than \n ('.' in ECMA-262 stops
//     at \r, U+2028 and U+2029, RE2's and Python's do not), and Unicode whitespace outside
//     ASCII, \v and U+001C..U+001F (\s is ASCII in RE2, Unicode in the others, and Python's
//     also counts U+001C..U+001F while ECMA-262's counts U+FEFF);
//   - when the pattern names \w \W \b \B: letters and numbers outside ASCII (word
//     characters in Python, not in RE2 or ECMA-262);
//   - when it names \d \D: decimal digits outside ASCII (digits in Python only).
func (sh shorthands) disagree(r rune) bool {
	if ecmaDisagrees(r) || r > 0xffff || (r >= 0x1c && r <= 0x1f) {
		return true
	}
	if r < 0x80 {
		return false
	}
	if sh.word && (unicode.IsLetter(r) || unicode.IsNumber(r)) {
		return true
	}
	return sh.digit && unicode.IsDigit(r)
}

// ok reports whether s meets every constraint of the plan.
func (p *strPlan) ok(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < p.minLen || (p.maxLen >= 0 && n > p.maxLen) {
		return false
	}
	for _, pt := range p.patterns {
		if !pt.match(s) {
			return false
		}
	}
	for _, f := range p.formats {
		if f.Validate(s) != nil {
			return false
		}
	}
	return true
}

func (p *strPlan) gen(t *rapid.T) (any, bool) {
	var built *pattern // the pattern strings are built from, counted
	if p.format == "" && len(p.patterns) > 0 {
		built = p.patterns[0]
	}
	for attempt := 0; attempt < 8; attempt++ {
		var s string
		switch {
		case p.format != "":
			s = formatGens[p.format](t)
		case built != nil:
			var ok bool
			if s, ok = built.gen(t, p.minLen, p.maxLen); !ok {
				built.failed.Add(1)
				continue
			}
		default:
			s = p.plain(t)
			if !p.check {
				return s, true
			}
		}
		if p.ok(s) {
			if built != nil {
				built.built.Add(1)
			}
			return s, true
		}
		if built != nil {
			built.failed.Add(1)
		}
	}
	if len(p.fallback) > 0 {
		return p.fallback[draw.Int(t, 0, len(p.fallback)-1, "example")], true
	}
	return nil, false
}

// plain draws a string of runes in [minLen, maxLen], biased to the bounds and to characters
// that break validators: astral, right-to-left, NUL, quotes, backslashes, combining marks.
// The choices between a few outcomes are drawn as draw.Chance bits (the odds in comments),
// the length and the runes as rapid integers.
func (p *strPlan) plain(t *rapid.T) string {
	lo, hi := p.minLen, p.maxLen
	var n int
	// mode 0: lo, 1: hi, 2: in between; a bound 11 times in 32, lo or hi alike.
	mode := 2
	if !draw.Chance(t, 21, 5, "lenAny") {
		mode = 0
		if draw.Bool(t, "lenMax") {
			mode = 1
		}
	}
	switch {
	case mode == 0:
		n = lo
	case mode == 1 && hi >= 0:
		n = hi
	case hi >= 0 && hi-lo <= 40:
		n = draw.Int(t, lo, hi, "len")
	case hi >= 0:
		n = draw.Int(t, lo, lo+40, "len")
	default:
		n = draw.Int(t, lo, lo+24, "len")
	}
	// Past 4096 a length stays near the least the schema allows: a long string costs a draw a
	// rune, and its length beyond that tells a gate nothing more.
	if n > 4096 {
		n = max(lo, 4096+draw.Int(t, 0, 8, "len"))
		if hi >= 0 && n > hi {
			n = hi
		}
	}
	flavour := runesASCII
	if draw.Chance(t, 9, 5, "flavour") { // 9 in 32: punctuation, half of them exotic too
		flavour = runesPunct
		if draw.Bool(t, "exotic") {
			flavour = runesExotic
		}
	}
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < n; i++ {
		b.WriteRune(drawRune(t, flavour))
	}
	return b.String()
}

// The rune sets of plain strings.
const (
	runesASCII  = iota // ASCII letters and digits
	runesPunct         // and punctuation and control characters
	runesExotic        // and non-ASCII runes, astral ones and NUL among them
)

const (
	alnum  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	punct  = " -_./:,;'\"\\!?@#$%&*()[]{}<>=+~`|^\t\n"
	exotic = "\x00é中ش\u05d0\u200f\u0301\U0001F600\U00010348\u00a0\ufeff\u2028ß\u0130"
)

var (
	alnumRunes  = []rune(alnum)
	punctRunes  = []rune(punct)
	exoticRunes = []rune(exotic)

	// The index generators of drawRune, drawn from once a rune (draw.Int's, without its look-up).
	alnumGen  = rapid.IntRange(0, len(alnumRunes)-1)
	punctGen  = rapid.IntRange(0, len(punctRunes)-1)
	exoticGen = rapid.IntRange(0, len(exoticRunes)-1)
)

// drawRune draws one rune of the flavour's set: with runesPunct 5 in 32 are punctuation or
// control characters, with runesExotic 5 in 32 are punctuation or non-ASCII (half each); the
// rest are ASCII letters and digits.
func drawRune(t *rapid.T, flavour int) rune {
	if flavour != runesASCII && draw.Chance(t, 5, 5, "rune") {
		if flavour == runesExotic && draw.Bool(t, "exotic") {
			return exoticRunes[exoticGen.Draw(t, "exotic")]
		}
		return punctRunes[punctGen.Draw(t, "punct")]
	}
	return alnumRunes[alnumGen.Draw(t, "alnum")]
}

// gen builds a string the pattern may match, aiming for [minLen, maxLen] runes; the caller
// checks the result. Runes the regex dialects read differently are not drawn for classes and
// '.' (shorthands.disagree).
func (pt *pattern) gen(t *rapid.T, minLen, maxLen int) (string, bool) {
	if pt.syn == nil {
		return "", false
	}
	var b strings.Builder
	w := &regexWriter{t: t, b: &b, budget: 2000, avoid: pt.avoid}
	if !w.build(pt.syn) {
		return "", false
	}
	s := pt.withAhead(t, b.String())
	// An unanchored pattern matches inside a longer string: pad to reach minLen.
	if n := utf8.RuneCountInString(s); n < minLen {
		if !unanchoredEnd(pt.syn) {
			return s, true
		}
		var pad strings.Builder
		for i := n; i < minLen; i++ {
			pad.WriteByte(alnum[draw.Int(t, 0, 25, "pad")])
		}
		s += pad.String()
	}
	return s, true
}

// withAhead puts in s a string of each positive lookahead's part, over its runes at a drawn
// place (appended when s is shorter), so that a pattern such as ^(?=.*[0-9]).{8,}$ can be met:
// the length s was built to stays, and the oracle's engine judges the result.
func (pt *pattern) withAhead(t *rapid.T, s string) string {
	for _, a := range pt.ahead {
		var b strings.Builder
		w := &regexWriter{t: t, b: &b, budget: 200, avoid: a.avoid}
		if !w.build(a.syn) {
			continue
		}
		part, rs := []rune(b.String()), []rune(s)
		if len(part) >= len(rs) {
			s = string(append(rs, part...))
			continue
		}
		at := draw.Int(t, 0, len(rs)-len(part), "aheadAt")
		copy(rs[at:], part)
		s = string(rs)
	}
	return s
}

func unanchoredEnd(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEndText, syntax.OpEndLine:
		return false
	case syntax.OpConcat:
		if len(re.Sub) > 0 {
			return unanchoredEnd(re.Sub[len(re.Sub)-1])
		}
	case syntax.OpCapture:
		return unanchoredEnd(re.Sub[0])
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !unanchoredEnd(s) {
				return false
			}
		}
	}
	return true
}

// ecmaDisagrees reports runes that JavaScript's \s or '.' treat differently from RE2.
func ecmaDisagrees(r rune) bool {
	switch r {
	case '\r', '\v', '\f', 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return (r >= 0x2000 && r <= 0x200a) || (r >= 0xd800 && r <= 0xdfff)
}

type regexWriter struct {
	t      *rapid.T
	b      *strings.Builder
	budget int
	avoid  shorthands
}

func (w *regexWriter) build(re *syntax.Regexp) bool {
	w.budget--
	if w.budget < 0 {
		return false
	}
	t := w.t
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && draw.Bool(t, "fold") {
				r = foldASCII(r)
			}
			w.b.WriteRune(r)
		}
		return true
	case syntax.OpCharClass:
		r, ok := classRune(t, re.Rune, w.avoid)
		if !ok {
			return false
		}
		w.b.WriteRune(r)
		return true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		w.anyChar()
		return true
	case syntax.OpCapture:
		return w.build(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return w.repeat(re)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if !w.build(s) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		return w.build(re.Sub[draw.Int(t, 0, len(re.Sub)-1, "alt")])
	}
	return false
}

// anyChar writes the character of a dot: now and then one of the exotic runes (unless the
// dialects disagree on it), an ASCII letter or digit otherwise.
func (w *regexWriter) anyChar() {
	t := w.t
	if draw.Chance(t, 11, 6, "anyKind") { // 11 in 64
		r := exoticRunes[draw.Int(t, 1, 8, "any")]
		if w.avoid.disagree(r) {
			r = '~'
		}
		w.b.WriteRune(r)
	} else {
		w.b.WriteByte(alnum[draw.Int(t, 0, len(alnum)-1, "any")])
	}
}

// repeat writes a drawn number of repetitions of re's sub-expression (*, +, ? or {m,n}; an
// unbounded one at most 6 beyond its least).
func (w *regexWriter) repeat(re *syntax.Regexp) bool {
	t := w.t
	lo, hi := re.Min, re.Max
	switch re.Op {
	case syntax.OpStar:
		lo, hi = 0, -1
	case syntax.OpPlus:
		lo, hi = 1, -1
	case syntax.OpQuest:
		lo, hi = 0, 1
	}
	if hi < 0 {
		hi = lo + 6
	}
	k := lo
	if hi > lo {
		if draw.Chance(t, 15, 6, "repMode") { // the most repetitions 15 times in 64
			k = hi
		} else {
			k = draw.Int(t, lo, hi, "rep")
		}
	}
	for i := 0; i < k; i++ {
		if !w.build(re.Sub[0]) {
			return false
		}
	}
	return true
}

func foldASCII(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return r - 'a' + 'A'
	case r >= 'A' && r <= 'Z':
		return r - 'A' + 'a'
	}
	return r
}

// classRune draws a rune from a character class (pairs of ranges), preferring printable
// ASCII members and never runes the regex dialects read differently (avoid.disagree).
func classRune(t *rapid.T, ranges []rune, avoid shorthands) (rune, bool) {
	if len(ranges) == 0 {
		return 0, false
	}
	// Printable ASCII members first, most of the time.
	if !draw.Chance(t, 13, 6, "classKind") { // 51 times in 64
		var ascii [95]rune
		k := 0
		for i := 0; i+1 < len(ranges); i += 2 {
			for r := max(ranges[i], 0x20); r <= min(ranges[i+1], 0x7e); r++ {
				ascii[k] = r
				k++
			}
		}
		if k > 0 {
			return ascii[draw.Int(t, 0, k-1, "ascii")], true
		}
	}
	for tries := 0; tries < 4; tries++ {
		i := 2 * draw.Int(t, 0, len(ranges)/2-1, "range")
		lo, hi := ranges[i], ranges[i+1]
		if hi > lo+0xffff {
			hi = lo + 0xffff
		}
		r := lo + rune(draw.Int(t, 0, int(hi-lo), "classRune"))
		if !avoid.disagree(r) && utf8.ValidRune(r) && (unicode.IsPrint(r) || r < 0x7f) {
			return r, true
		}
	}
	// A class whose members are mostly runes to avoid: its first member that is not one, or,
	// when every member is (an explicit class such as [\u2000-\u200a], which every dialect
	// reads alike), its first member that is a rune at all.
	budget := 1 << 14
	for i := 0; i+1 < len(ranges) && budget > 0; i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && budget > 0; r++ {
			budget--
			if !avoid.disagree(r) && utf8.ValidRune(r) && (unicode.IsPrint(r) || r < 0x7f) {
				return r, true
			}
		}
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < ranges[i]+0x800; r++ {
			if utf8.ValidRune(r) {
				return r, true
			}
		}
	}
	return 0, false
}
