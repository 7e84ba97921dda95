package mutators

import (
	"encoding/json"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/uniq"
)

// ---- out_of_range_enum: a constraint broken: a value outside an enum or const (near misses:
// another case, prod for production, a sibling tool's value), numbers past their bounds, a float
// for an integer, a broken multipleOf, string lengths, patterns, array sizes, duplicates.

// OutOfRangeEnum is the class of a constraint broken: an enum, a bound, a length, a pattern.
const OutOfRangeEnum corpus.Class = "out_of_range_enum"

func outOfRangeClass() Definition {
	return Definition{Name: OutOfRangeEnum, Mutator: outOfRange{},
		Doc: "a constraint broken: an enum near miss (another case, `prod`/`production`, " +
			"`in_progress`/`in-progress`, " +
			"a sibling tool's value), past minimum/maximum, equal to an exclusive bound, a fraction for an integer, " +
			"off a multipleOf, too short or long, off the pattern, too few or many items, a duplicate under " +
			"uniqueItems",
		recognise: recogniser{explain: outOfRange{}, explainRank: 3},
		Audit:     AuditHints{Analyse: rangeHints, Probe: rangeProbe, Breaks: true}}
}

type outOfRange struct{}

func (outOfRange) Class() corpus.Class { return OutOfRangeEnum }

// synonyms are values models swap for each other.
var synonyms = [][]string{
	{"prod", "production"}, {"dev", "development", "develop"}, {"staging", "stage"}, {"test", "testing"},
	{"in_progress", "in-progress", "inprogress", "in progress"}, {"completed", "complete", "done"},
	{"pending", "todo"}, {"asc", "ascending"}, {"desc", "descending"}, {"celsius", "c", "metric"},
	{"fahrenheit", "f", "imperial"}, {"high", "urgent"}, {"medium", "normal"}, {"javascript", "js", "node"},
	{"typescript", "ts"}, {"python", "py", "python3"}, {"GET", "get", "fetch"}, {"delete", "remove"},
}

// nearMissValues returns strings a model writes instead of s.
func nearMissValues(s string) []string {
	var out []string
	add := func(v string) {
		if v != s {
			out = append(out, v)
		}
	}
	add(strings.ToUpper(s))
	if s != "" {
		add(strings.ToUpper(s[:1]) + s[1:])
		add(s + "s")
		add(s + " ")
	}
	add(strings.ReplaceAll(s, "_", "-"))
	add(strings.ReplaceAll(s, "-", "_"))
	for _, group := range synonyms {
		for _, g := range group {
			if strings.EqualFold(g, s) {
				for _, other := range group {
					add(other)
				}
			}
		}
	}
	return uniq.Of(out)
}

func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		if jsonvalue.Equal(e, v) {
			return true
		}
	}
	return false
}

func (outOfRange) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	var places []*site
	for _, s := range tg.sites {
		if rangeApplies(s) {
			places = append(places, s)
		}
	}
	return firstConfirmed(t, tg, OutOfRangeEnum, places, func(t *rapid.T, s *site) []candidate {
		return rangeCandidates(t, tg, s, true)
	})
}

// rangeApplies tells cheaply whether rangeCandidates would propose anything at s.
func rangeApplies(s *site) bool {
	for _, sch := range s.schemas {
		switch v := s.value.(type) {
		case string, json.Number:
			if (sch.Enum != nil || sch.Const != nil) && s.parent != nil {
				return true
			}
			if str, ok := v.(string); ok {
				if (sch.MinLength != nil && *sch.MinLength > 0 && len([]rune(str)) >= *sch.MinLength) ||
					(sch.MaxLength != nil && *sch.MaxLength < 100000) || sch.Pattern != nil {
					return true
				}
			} else if sch.Minimum != nil || sch.Maximum != nil || sch.ExclusiveMinimum != nil ||
				sch.ExclusiveMaximum != nil || sch.MultipleOf != nil {
				return true
			} else if sch.Types != nil {
				if ts := sch.Types.ToStrings(); len(ts) == 1 && ts[0] == "integer" {
					return true
				}
			}
		case []any:
			if (sch.MinItems != nil && *sch.MinItems > 0 && len(v) >= *sch.MinItems) ||
				(sch.MaxItems != nil && *sch.MaxItems < 10000 && len(v) > 0) || (sch.UniqueItems && len(v) > 0) {
				return true
			}
		}
	}
	return false
}

// rangeCandidates proposes the constraint breaks at s. With drawing false it draws nothing.
func rangeCandidates(t *rapid.T, tg *Target, s *site, drawing bool) []candidate {
	b := &breaks{t: t, tg: tg, s: s, drawing: drawing}
	b.enumBreaks()
	switch v := s.value.(type) {
	case json.Number:
		b.numberBreaks(v)
	case string:
		b.stringBreaks(v)
	case []any:
		b.arrayBreaks(v)
	}
	return b.out
}

// breaks collects the candidates of one site.
type breaks struct {
	t       *rapid.T
	tg      *Target
	s       *site
	drawing bool // draw canaries and borrowed values (false: draw nothing)
	out     []candidate
}

func (b *breaks) put(v any, variant string, reason func() string, canary string, keywords ...string) {
	b.out = append(b.out, candidate{build: at(b.tg, b.s, v), replaces: b.s, with: v, path: b.s.path, variant: variant,
		keywords: keywords, reason: reason, canary: canary})
}

// putBuilt is put for a value built only if the candidate is tried (a long string, say).
func (b *breaks) putBuilt(build func() any, variant string, reason func() string, canary string, keywords ...string) {
	tg, s := b.tg, b.s
	b.out = append(b.out,
		candidate{build: func() any { return jsonvalue.Replaced(tg.Value, s.tokens(), build()) }, path: s.path,
			variant: variant, keywords: keywords, reason: reason, canary: canary})
}

// putItems is put for array changes, which the oracle may report at an item.
func (b *breaks) putItems(v any, variant string, reason func() string, keywords ...string) {
	b.out = append(b.out, candidate{build: at(b.tg, b.s, v), replaces: b.s, with: v, path: b.s.path, variant: variant,
		keywords: keywords, reason: reason, below: true})
}

// canary is a drawn canary, or a fixed prefix when nothing may be drawn.
func (b *breaks) canary() string {
	if b.drawing {
		return canary(b.t)
	}
	return "tpc-"
}

// enumBreaks: a value the enum or const does not list.
func (b *breaks) enumBreaks() {
	t, tg, s, drawing, put := b.t, b.tg, b.s, b.drawing, b.put
	if enum := s.enum(); enum != nil && s.parent != nil {
		if str, ok := s.value.(string); ok {
			for _, miss := range nearMissValues(str) {
				if !inEnum(enum, miss) {
					put(miss, "enum-near-miss",
						because("%q written as %q at %s, which the enum does not list", str, miss,
							s.path), "", "enum", "const")
				}
			}
			if sib := tg.ctx.siblingEnum; len(sib) > 0 && drawing {
				v := sib[draw.Int(t, 0, len(sib)-1, "siblingEnum")]
				if !inEnum(enum, v) {
					put(v, "enum-borrowed", because("%q, an enum value of another tool of the file, at %s", v, s.path),
						"", "enum", "const")
				}
			}
		}
		if n, ok := s.value.(json.Number); ok {
			if r, ok := jsonvalue.Rat(n); ok {
				// One more or one less, and small numbers a double tells apart from large members.
				tries := []*big.Rat{new(big.Rat).Add(r, big.NewRat(1, 1)), new(big.Rat).Sub(r, big.NewRat(1, 1)),
					big.NewRat(-1, 2), big.NewRat(7, 4)}
				n := 0
				for _, x := range tries {
					v := json.Number(jsonvalue.RatText(x))
					if !inEnum(enum, v) && n < 2 {
						put(v, "enum-number",
							because("%s at %s, a number the enum does not list", v, s.path), "", "enum", "const")
						n++
					}
				}
			}
		}
	}
}

// numberBreaks: past the bounds, a fraction for an integer, off the multipleOf.
func (b *breaks) numberBreaks(v json.Number) {
	s, put := b.s, b.put
	r, ok := jsonvalue.Rat(v)
	if !ok {
		return
	}
	ty := s.types()
	integer := ty.has("integer") && !ty.has("number")
	step := big.NewRat(1, 1)
	if m, ok := s.ratField(func(x *jsonschema.Schema) *big.Rat { return x.MultipleOf }, true); ok && !integer {
		step = m
	}
	if m, ok := s.ratField(func(x *jsonschema.Schema) *big.Rat { return x.Minimum }, true); ok {
		for _, below := range []*big.Rat{new(big.Rat).Sub(m, step), farBelow(m, step)} {
			put(json.Number(jsonvalue.RatText(below)), "below-minimum",
				because("%s at %s, below the minimum %s", jsonvalue.RatText(below), s.path,
					m.RatString()), "", "minimum")
		}
	}
	if m, ok := s.ratField(func(x *jsonschema.Schema) *big.Rat { return x.ExclusiveMinimum }, true); ok {
		put(json.Number(jsonvalue.RatText(m)), "exclusive-minimum",
			because("%s at %s, equal to the exclusive minimum", m.RatString(), s.path), "", "exclusiveMinimum")
	}
	if m, ok := s.ratField(func(x *jsonschema.Schema) *big.Rat { return x.Maximum }, false); ok {
		for _, above := range []*big.Rat{new(big.Rat).Add(m, step), farAbove(m, step)} {
			put(json.Number(jsonvalue.RatText(above)), "above-maximum",
				because("%s at %s, above the maximum %s", jsonvalue.RatText(above), s.path,
					m.RatString()), "", "maximum")
		}
	}
	if m, ok := s.ratField(func(x *jsonschema.Schema) *big.Rat { return x.ExclusiveMaximum }, false); ok {
		put(json.Number(jsonvalue.RatText(m)), "exclusive-maximum",
			because("%s at %s, equal to the exclusive maximum", m.RatString(), s.path), "", "exclusiveMaximum")
	}
	if integer {
		// The value plus a half, and, where a double cannot hold that half (|value| >= 2^52),
		// a fraction small enough to survive as a double.
		for _, f := range []*big.Rat{new(big.Rat).Add(r, big.NewRat(1, 2)), smallFraction(r)} {
			put(json.Number(jsonvalue.RatText(f)), "float-for-integer",
				because("%s at %s, a fraction where an integer is required", jsonvalue.RatText(f), s.path), "", "type")
		}
	}
	if m, ok := s.ratField(func(x *jsonschema.Schema) *big.Rat { return x.MultipleOf }, true); ok {
		half := new(big.Rat).Quo(m, big.NewRat(2, 1))
		// Off by half a step, from the value and, for values too large for doubles to see
		// the half, from zero.
		for _, off := range []*big.Rat{new(big.Rat).Add(r, half),
			new(big.Rat).Add(new(big.Rat).Mul(m, big.NewRat(3, 1)), half)} {
			put(json.Number(jsonvalue.RatText(off)), "not-multiple",
				because("%s at %s, not a multiple of %s", jsonvalue.RatText(off), s.path,
					m.RatString()), "", "multipleOf", "type")
		}
	}
}

// stringBreaks: too short, too long, off the pattern.
func (b *breaks) stringBreaks(v string) {
	s, put := b.s, b.put
	n := utf8.RuneCountInString(v)
	if m, ok := s.intField(func(x *jsonschema.Schema) *int { return x.MinLength }, true); ok && m > 0 && n >= m {
		b.putBuilt(func() any { return string([]rune(v)[:m-1]) }, "too-short",
			because("the string at %s cut to %d characters, below minLength %d", s.path, m-1, m), "", "minLength")
	}
	if m, ok := s.intField(func(x *jsonschema.Schema) *int { return x.MaxLength }, false); ok && m < 100000 {
		c := b.canary()
		// Two fillers: one with spaces and a canary, one of plain letters that keeps most
		// formats (a format failure hides the length failure in some validators).
		need := m + 1 - n
		unit := " " + c
		b.putBuilt(func() any { return v + strings.Repeat(unit, need/len(unit)+1) }, "too-long",
			because("the string at %s made longer than maxLength %d", s.path, m), c, "maxLength")
		b.putBuilt(func() any { return v + strings.Repeat("a", need) }, "too-long",
			because("the string at %s made longer than maxLength %d", s.path, m), "", "maxLength")
	}
	for _, sch := range s.schemas {
		if sch.Pattern == nil {
			continue
		}
		c := b.canary()
		for _, bad := range []string{c + " !", v + " !", strings.ToUpper(v), ""} {
			if !sch.Pattern.MatchString(bad) {
				cn := ""
				if strings.Contains(bad, c) {
					cn = c
				}
				put(bad, "pattern", because("a string at %s that does not match the pattern %s", s.path,
					sch.Pattern.String()), cn, "pattern")
				break
			}
		}
		break
	}
}

// arrayBreaks: too few or many items, a duplicate under uniqueItems.
func (b *breaks) arrayBreaks(v []any) {
	s, putItems := b.s, b.putItems
	if m, ok := s.intField(func(x *jsonschema.Schema) *int { return x.MinItems }, true); ok && m > 0 && len(v) >= m {
		putItems(append([]any{}, v[:m-1]...), "too-few-items",
			because("the array at %s cut to %d items, below minItems %d", s.path, m-1, m), "minItems")
	}
	if m, ok := s.intField(func(x *jsonschema.Schema) *int { return x.MaxItems }, false); ok &&
		len(v) > 0 && m < 10000 {
		long := append([]any{}, v...)
		for len(long) <= m {
			long = append(long, v[len(long)%len(v)])
		}
		putItems(long, "too-many-items", because("the array at %s made longer than maxItems %d", s.path, m), "maxItems")
	}
	unique := false
	for _, sch := range s.schemas {
		unique = unique || sch.UniqueItems
	}
	if unique && len(v) > 0 {
		dup := append(append([]any{}, v...), v[0])
		putItems(dup, "duplicate-items",
			because("the first item of the array at %s repeated, which uniqueItems forbids", s.path), "uniqueItems")
	}
}

// two52 is 2^52: from there on a double holds no fraction.
var two52 = new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 52))

// farBelow is a number below m by a margin any double sees: m - |m| - step.
func farBelow(m, step *big.Rat) *big.Rat {
	return new(big.Rat).Sub(new(big.Rat).Sub(m, new(big.Rat).Abs(m)), step)
}

// farAbove is a number above m by a margin any double sees: m + |m| + step.
func farAbove(m, step *big.Rat) *big.Rat {
	return new(big.Rat).Add(new(big.Rat).Add(m, new(big.Rat).Abs(m)), step)
}

// smallFraction is a fraction near r that a double holds: r + 1/2 when |r| < 2^52, else 1/2
// with r's sign.
func smallFraction(r *big.Rat) *big.Rat {
	if new(big.Rat).Abs(r).Cmp(two52) < 0 {
		return new(big.Rat).Add(r, big.NewRat(1, 2))
	}
	return big.NewRat(int64(r.Sign()), 2)
}

// rangeHints: a place with a constraint to break catches the class; a free string or an
// unbounded number lets it through.
func rangeHints(p *SchemaPlace) []Hint {
	ts := p.Types
	switch {
	case p.Root:
		return nil
	case len(p.Constraints) > 0:
		return caught("%s has %s to break", p.Where, strings.Join(p.Constraints, ", "))
	case ts != nil && ts["string"] && len(ts) == 1:
		return unconstrained("%s is a free string: no enum, pattern or length to leave", p.Where)
	case ts != nil && (ts["number"] || ts["integer"]):
		return unconstrained("%s is %s without bounds: any number passes", p.Where, p.Desc)
	}
	return nil
}

// rangeProbe tries to leave a constraint: near misses and other strings, numbers far beyond
// either side and a fraction, empty and doubled arrays.
func rangeProbe(p *Probe) {
	path, put := p.Path, p.Put
	switch v := p.X.(type) {
	case string:
		put("near-miss", v+"s", "%q written as %q at %s", v, v+"s", path)
		if up := strings.ToUpper(v); up != v {
			put("upper-case", up, "%q written as %q at %s", v, up, path)
		}
		if v != ProbeCanary {
			put("other", ProbeCanary, "%q written as %q at %s", v, ProbeCanary, path)
		}
		if v != "" {
			put("empty", "", "%q written as the empty string at %s", v, path)
		}
		put("long", v+strings.Repeat("a", 1001), "the string at %s made 1001 characters longer", path)
	case json.Number:
		rangeProbeNumber(v, path, put)
	case []any:
		if len(v) > 0 {
			put("empty", []any{}, "the array at %s emptied", path)
			put("doubled", append(append([]any{}, v...), v...), "the items of the array at %s repeated", path)
		}
	}
}

// rangeProbeNumber puts numbers far above and below v, and a fraction in place of an integer.
func rangeProbeNumber(v json.Number, path string, put func(variant string, nv any, format string, args ...any)) {
	r, ok := jsonvalue.Rat(v)
	if !ok {
		return
	}
	// A billion, or |x| where that is more: a step binary64 still sees at any magnitude.
	far := big.NewRat(1000000000, 1)
	if abs := new(big.Rat).Abs(r); abs.Cmp(far) > 0 {
		far = abs
	}
	up := jsonvalue.RatText(new(big.Rat).Add(r, far))
	down := jsonvalue.RatText(new(big.Rat).Sub(r, far))
	put("far-above", json.Number(up), "%s at %s, far above %s", up, path, v)
	put("far-below", json.Number(down), "%s at %s, far below %s", down, path, v)
	// A fraction binary64 still tells from an integer.
	if r.IsInt() && new(big.Rat).Abs(r).Cmp(big.NewRat(1<<40, 1)) < 0 {
		f := jsonvalue.RatText(new(big.Rat).Add(r, big.NewRat(1, 2)))
		put("fraction", json.Number(f), "%s at %s in place of the integer %s", f, path, v)
	}
}
