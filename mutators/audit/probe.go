package audit

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
)

// probe is one distortion the audit builds itself: the forms the mutators try, built at every
// place (a mutator skips the places where the schema lets its class through, and keeps only
// what the oracle rejects).
type probe struct {
	args    []byte
	path    string
	variant string
	reason  string
}

// canaryText is the string the audit plants where a distortion needs one.
const canaryText = "tpc-audit"

// inventedKeys are tried in order; the first the object neither holds nor declares is used.
var inventedKeys = []string{"verbose", "debug", "dry_run", "metadata", "tpc_audit"}

// probes returns the group's distortions of the sample's value at loc.
func probes(g *group, s sample, loc []string) []probe {
	x, ok := jsonvalue.Get(s.value, jsonvalue.Pointer(loc))
	if !ok {
		return nil
	}
	p := &prober{g: g, s: s, loc: loc, path: jsonvalue.Pointer(loc), x: x, ty: jsonvalue.TypeName(x)}
	// An array item changed into a copy of another item breaks uniqueItems by chance, not as
	// the class means: such a change is not tried.
	if len(loc) > 0 {
		if a, ok := jsonvalue.Get(s.value, jsonvalue.Pointer(loc[:len(loc)-1])); ok {
			p.siblings, _ = a.([]any)
		}
	}
	p.class()
	return p.out
}

// prober makes the distortions of the value at one place of one sample.
type prober struct {
	g        *group
	s        sample
	loc      []string
	path     string
	x        any    // the value at loc
	ty       string // its JSON type
	siblings []any  // the items beside it, when it is an array item
	out      []probe
}

// put adds the sample with the value at loc replaced by nv, unless nv equals a sibling item.
func (p *prober) put(variant string, nv any, format string, args ...any) {
	for i, e := range p.siblings {
		if strconv.Itoa(i) != p.loc[len(p.loc)-1] && jsonvalue.Equal(e, nv) {
			return
		}
	}
	p.out = append(p.out, probe{args: jsonvalue.MustMarshal(jsonvalue.Replaced(p.s.value, p.loc, nv)), path: p.path,
		variant: variant, reason: fmt.Sprintf(format, args...)})
}

// class adds the distortions of the group's class.
func (p *prober) class() {
	x, ty, path, loc, s, put := p.x, p.ty, p.path, p.loc, p.s, p.put
	scalar := ty != "object" && ty != "array"
	switch p.g.class {
	case mutators.StringifiedType:
		p.stringified()
	case mutators.NullValue:
		if x != nil {
			put("null", nil, "null at %s in place of the %s", path, ty)
		}
	case mutators.WrongType:
		forms := jsonvalue.OtherTypes(x, canaryText)
		for _, f := range forms {
			put(ty+"-to-"+jsonvalue.TypeName(f), f, "a %s at %s in place of the %s", jsonvalue.TypeName(f), path, ty)
		}
	case mutators.WrappedScalar:
		if scalar {
			put("wrapped", []any{x}, "the %s at %s wrapped in an array", ty, path)
		}
	case mutators.JSONInString:
		if !scalar {
			put("encoded", string(jsonvalue.MustMarshal(x)), "the %s at %s JSON-encoded into a string", ty, path)
		}
	case mutators.FlattenedArray:
		p.flattened()
	case mutators.OutOfRangeEnum:
		rangeProbes(x, path, put)
	case mutators.HallucinatedKey:
		p.hallucinated()
	case mutators.MissingRequired:
		p.missing()
	case mutators.WrapperNesting:
		if len(loc) == 0 {
			put("arguments", map[string]any{"arguments": s.value}, `the arguments nested under "arguments"`)
		}
	case mutators.RootNotObject:
		if len(loc) == 0 {
			p.out = append(p.out, probe{args: []byte("[" + string(s.text) + "]"), variant: "array",
				reason: "the arguments object wrapped in an array"})
			p.out = append(p.out, probe{args: jsonvalue.MustMarshal(string(s.text)), variant: "string",
				reason: "the arguments object sent as a JSON string"})
		}
	case mutators.MalformedJSON:
		if len(loc) == 0 && len(s.text) > 1 {
			p.out = append(p.out, probe{args: s.text[:len(s.text)-1], variant: "truncated",
				reason: "the argument text cut short by its last byte"})
		}
	}
}

// stringified writes a number, a boolean or null as a string.
func (p *prober) stringified() {
	var str string
	switch v := p.x.(type) {
	case json.Number:
		str = string(v)
	case bool:
		str = strconv.FormatBool(v)
	case nil:
		str = "null"
	default:
		return
	}
	p.put("exact", str, "the %s at %s written as the string %q", p.ty, p.path, str)
}

// flattened joins an array of scalars into one string, and replaces an array by its first item.
func (p *prober) flattened() {
	a, isArray := p.x.([]any)
	if !isArray || len(a) == 0 {
		return
	}
	if parts, ok := jsonvalue.ScalarTexts(a); ok {
		p.put("comma-joined", strings.Join(parts, ","), "the array at %s joined into one comma-separated string", p.path)
	}
	p.put("unwrapped", a[0], "the array at %s replaced by its first item", p.path)
}

// hallucinated adds an invented key to an object: with a canary, and with the value of a key
// already there (a map may take any key whose value is valid).
func (p *prober) hallucinated() {
	obj, isObject := p.x.(map[string]any)
	if !isObject {
		return
	}
	declared := map[string]bool{}
	for _, k := range p.g.declared {
		declared[k] = true
	}
	key := ""
	for _, k := range inventedKeys {
		if _, present := obj[k]; !present && !declared[k] {
			key = k
			break
		}
	}
	if key == "" {
		return
	}
	path := p.path
	kp := path + "/" + jsonvalue.EscapeToken(key)
	add := func(variant string, v any, reason string) {
		p.out = append(p.out, probe{args: jsonvalue.MustMarshal(jsonvalue.Replaced(p.s.value, p.loc, withKey(obj, key, v))),
			path: kp, variant: variant, reason: reason})
	}
	add("invented", canaryText, fmt.Sprintf("an invented key %q added to %s", key, where(path)))
	if ks := childKeys(obj); len(ks) > 0 {
		add("invented-copy", obj[ks[0]], fmt.Sprintf("an invented key %q added to %s with the value of %q", key, where(path), ks[0]))
	}
}

// missing leaves out each required property the object holds (each declared one, when none is
// required), in name order.
func (p *prober) missing() {
	obj, isObject := p.x.(map[string]any)
	if !isObject {
		return
	}
	names := p.g.required
	if len(names) == 0 {
		names = p.g.declared
	}
	names = append([]string(nil), names...)
	sort.Strings(names)
	for _, k := range names {
		if _, present := obj[k]; !present {
			continue
		}
		p.out = append(p.out, probe{args: jsonvalue.MustMarshal(jsonvalue.Replaced(p.s.value, p.loc, withoutKey(obj, k))),
			path: p.path + "/" + jsonvalue.EscapeToken(k), variant: "omitted",
			reason: fmt.Sprintf("the property %q left out of %s", k, where(p.path))})
	}
}

// rangeProbes are attempts to leave a constraint: near misses and other strings, numbers far
// beyond either side and a fraction, empty and doubled arrays.
func rangeProbes(x any, path string, put func(variant string, nv any, format string, args ...any)) {
	switch v := x.(type) {
	case string:
		put("near-miss", v+"s", "%q written as %q at %s", v, v+"s", path)
		if up := strings.ToUpper(v); up != v {
			put("upper-case", up, "%q written as %q at %s", v, up, path)
		}
		if v != canaryText {
			put("other", canaryText, "%q written as %q at %s", v, canaryText, path)
		}
		if v != "" {
			put("empty", "", "%q written as the empty string at %s", v, path)
		}
		put("long", v+strings.Repeat("a", 1001), "the string at %s made 1001 characters longer", path)
	case json.Number:
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
	case []any:
		if len(v) > 0 {
			put("empty", []any{}, "the array at %s emptied", path)
			put("doubled", append(append([]any{}, v...), v...), "the items of the array at %s repeated", path)
		}
	}
}

func where(path string) string {
	if path == "" {
		return "the arguments"
	}
	return path
}

func withKey(obj map[string]any, k string, v any) map[string]any {
	m := make(map[string]any, len(obj)+1)
	for kk, e := range obj {
		m[kk] = e
	}
	m[k] = v
	return m
}

func withoutKey(obj map[string]any, k string) map[string]any {
	m := make(map[string]any, len(obj))
	for kk, e := range obj {
		if kk != k {
			m[kk] = e
		}
	}
	return m
}
