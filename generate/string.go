package generate

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
)

// strPlan is the merged string constraints of a conjunction. Lengths are in runes.
type strPlan struct {
	minLen, maxLen int // maxLen < 0: unbounded
	patterns       []*pattern
	format         string // one asserted format with a generator ("" for none)
	formats        []*jsonschema.Format
	check          bool // more than one source of constraints: filter the draws
}

type pattern struct {
	src string
	re  *regexp.Regexp
	syn *syntax.Regexp
}

func planString(conj []*jsonschema.Schema) (*strPlan, string) {
	p := &strPlan{maxLen: -1}
	for _, s := range conj {
		if s.MinLength != nil && *s.MinLength > p.minLen {
			p.minLen = *s.MinLength
		}
		if s.MaxLength != nil && (p.maxLen < 0 || *s.MaxLength < p.maxLen) {
			p.maxLen = *s.MaxLength
		}
		if s.Pattern != nil {
			pt, err := newPattern(s.Pattern.String())
			if err != nil {
				return nil, err.Error()
			}
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
	return p, ""
}

func newPattern(src string) (*pattern, error) {
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("pattern %s does not compile as RE2: %v", src, err)
	}
	syn, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("pattern %s: %v", src, err)
	}
	return &pattern{src: src, re: re, syn: syn.Simplify()}, nil
}

// ok reports whether s meets every constraint of the plan.
func (p *strPlan) ok(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < p.minLen || (p.maxLen >= 0 && n > p.maxLen) {
		return false
	}
	for _, pt := range p.patterns {
		if !pt.re.MatchString(s) {
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
	for attempt := 0; attempt < 8; attempt++ {
		var s string
		switch {
		case p.format != "":
			s = formatGens[p.format](t)
		case len(p.patterns) > 0:
			var ok bool
			s, ok = p.patterns[0].gen(t, p.minLen, p.maxLen)
			if !ok {
				continue
			}
		default:
			s = p.plain(t)
			if !p.check {
				return s, true
			}
		}
		if p.ok(s) {
			return s, true
		}
	}
	return nil, false
}

// plain draws a string of runes in [minLen, maxLen], biased to the bounds and to characters
// that break validators: astral, right-to-left, NUL, quotes, backslashes, combining marks.
func (p *strPlan) plain(t *rapid.T) string {
	lo, hi := p.minLen, p.maxLen
	var n int
	mode := draw.Int(t, 0, 7, "lenMode")
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
	if n > 4096 {
		n = 4096 + draw.Int(t, 0, 8, "len")
		if hi >= 0 && n > hi {
			n = hi
		}
	}
	flavour := draw.Int(t, 0, 5, "flavour")
	var b strings.Builder
	b.Grow(n)
	for i := 0; i < n; i++ {
		b.WriteRune(drawRune(t, flavour))
	}
	return b.String()
}

const (
	alnum  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	punct  = " -_./:,;'\"\\!?@#$%&*()[]{}<>=+~`|^\t\n"
	exotic = "\x00é中ش\u05d0\u200f\u0301\U0001F600\U00010348\u00a0\ufeff\u2028ß\u0130"
)

var (
	alnumRunes  = []rune(alnum)
	punctRunes  = []rune(punct)
	exoticRunes = []rune(exotic)
)

// drawRune draws one rune; flavour 0..3 is ASCII letters and digits, 4 adds punctuation and
// control characters, 5 adds non-ASCII runes too, astral ones and NUL among them.
func drawRune(t *rapid.T, flavour int) rune {
	if flavour >= 4 {
		switch c := draw.Int(t, 0, 15, "rune"); {
		case c == 15 && flavour == 5:
			return exoticRunes[draw.Int(t, 0, len(exoticRunes)-1, "exotic")]
		case c >= 13:
			return punctRunes[draw.Int(t, 0, len(punctRunes)-1, "punct")]
		}
	}
	return alnumRunes[draw.Int(t, 0, len(alnumRunes)-1, "alnum")]
}

// gen builds a string the pattern may match, aiming for [minLen, maxLen] runes; the caller
// checks the result. Runes where ECMA-262 and RE2 disagree (\s, '.') are avoided.
func (pt *pattern) gen(t *rapid.T, minLen, maxLen int) (string, bool) {
	var b strings.Builder
	w := &regexWriter{t: t, b: &b, budget: 2000}
	if !w.build(pt.syn) {
		return "", false
	}
	s := b.String()
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
	for _, r := range s {
		if ecmaDisagrees(r) {
			return "", false
		}
	}
	return s, true
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
		r, ok := classRune(t, re.Rune)
		if !ok {
			return false
		}
		w.b.WriteRune(r)
		return true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		if draw.Int(t, 0, 7, "anyKind") == 0 {
			w.b.WriteRune(exoticRunes[draw.Int(t, 1, 8, "any")])
		} else {
			w.b.WriteByte(alnum[draw.Int(t, 0, len(alnum)-1, "any")])
		}
		return true
	case syntax.OpCapture:
		return w.build(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
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
			if draw.Int(t, 0, 4, "repMode") == 0 {
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
// ASCII members and never surrogates or runes where ECMA-262 and RE2 disagree.
func classRune(t *rapid.T, ranges []rune) (rune, bool) {
	if len(ranges) == 0 {
		return 0, false
	}
	// Printable ASCII members first, most of the time.
	if draw.Int(t, 0, 5, "classKind") != 0 {
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
		if !ecmaDisagrees(r) && utf8.ValidRune(r) && (unicode.IsPrint(r) || r < 0x7f) {
			return r, true
		}
	}
	return 0, false
}
