package generate

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// numPlan is the merged numeric constraints of a conjunction, exact.
type numPlan struct {
	lo, hi     *big.Rat // nil: unbounded
	loEx, hiEx bool
	step       *big.Rat // lcm of every multipleOf, nil if none
	stepInt    *big.Rat // lcm(step, 1): the step integers move by
	intOK      bool     // some integer satisfies the constraints
	fracOK     bool     // some value with a fraction may
	kInt       kRange   // integer multiples of stepInt in range

	fast       bool  // integers step by 1 and the bounds fit in int64: no big arithmetic
	fmin, fmax int64 // with fast: the integer range (MinInt64/MaxInt64 standing for unbounded)
	fminB      bool  // fmin is a real bound
	fmaxB      bool  // fmax is a real bound

	fkGen *rapid.Generator[int64] // with fast and both bounds: rapid.Int64Range(fmin, fmax), built once
}

// kRange is an integer range [min, max]; nil ends are unbounded.
type kRange struct{ min, max *big.Int }

func (r kRange) empty() bool { return r.min != nil && r.max != nil && r.min.Cmp(r.max) > 0 }

var (
	ratOne = big.NewRat(1, 1)
	bigOne = big.NewInt(1)
)

func planNumber(conj []*jsonschema.Schema, wantFrac bool) (*numPlan, string) {
	p := &numPlan{}
	p.read(conj)
	if p.lo != nil && p.hi != nil {
		c := p.lo.Cmp(p.hi)
		if c > 0 || (c == 0 && (p.loEx || p.hiEx)) {
			return nil, "minimum is above maximum"
		}
	}
	p.stepInt = ratOne
	if p.step != nil {
		p.stepInt = lcmRat(p.step, ratOne)
	}
	p.kInt = p.kRange(p.stepInt)
	p.intOK = !p.kInt.empty()
	p.planFast()
	switch {
	case !wantFrac:
	case p.step != nil:
		p.fracOK = !p.step.IsInt() && !p.kRange(p.step).empty()
	default:
		p.fracOK = true
	}
	if !p.intOK && !p.fracOK {
		if p.step != nil {
			return nil, "no multiple of " + p.step.RatString() + " lies in range"
		}
		return nil, "no integer lies in range"
	}
	return p, ""
}

// read takes the bounds (the tightest of every conjunct, exclusive winning a tie) and the step
// (the least common multiple of the multipleOf) from conj.
func (p *numPlan) read(conj []*jsonschema.Schema) {
	lower := func(v *big.Rat, ex bool) {
		if v == nil {
			return
		}
		if p.lo == nil || v.Cmp(p.lo) > 0 || (v.Cmp(p.lo) == 0 && ex) {
			p.lo, p.loEx = v, ex
		}
	}
	upper := func(v *big.Rat, ex bool) {
		if v == nil {
			return
		}
		if p.hi == nil || v.Cmp(p.hi) < 0 || (v.Cmp(p.hi) == 0 && ex) {
			p.hi, p.hiEx = v, ex
		}
	}
	for _, s := range conj {
		lower(s.Minimum, false)
		lower(s.ExclusiveMinimum, true)
		upper(s.Maximum, false)
		upper(s.ExclusiveMaximum, true)
		if s.MultipleOf != nil && s.MultipleOf.Sign() > 0 {
			if p.step == nil {
				p.step = s.MultipleOf
			} else {
				p.step = lcmRat(p.step, s.MultipleOf)
			}
		}
	}
}

// planFast sets up the fast path when the integers to draw are all the int64 k in a range.
func (p *numPlan) planFast() {
	if p.stepInt.Cmp(ratOne) != 0 || (p.kInt.min != nil && !p.kInt.min.IsInt64()) ||
		(p.kInt.max != nil && !p.kInt.max.IsInt64()) {
		return
	}
	p.fast = true
	p.fmin, p.fmax = math.MinInt64, math.MaxInt64
	if p.kInt.min != nil {
		p.fmin, p.fminB = p.kInt.min.Int64(), true
	}
	if p.kInt.max != nil {
		p.fmax, p.fmaxB = p.kInt.max.Int64(), true
	}
	if p.fminB && p.fmaxB && p.fmin <= p.fmax {
		p.fkGen = rapid.Int64Range(p.fmin, p.fmax)
	}
}

// kRange is the range of k such that k*step is within the bounds.
func (p *numPlan) kRange(step *big.Rat) kRange {
	var r kRange
	if p.lo != nil {
		r.min = kBound(p.lo, step, p.loEx, ceilRat, 1)
	}
	if p.hi != nil {
		r.max = kBound(p.hi, step, p.hiEx, floorRat, -1)
	}
	return r
}

// kBound is the k nearest bound/step inside the bound: the quotient rounded inwards by round,
// and one more step in (inwards: +1 or -1) when an exclusive bound is a multiple of step.
func kBound(bound, step *big.Rat, exclusive bool, round func(*big.Rat) *big.Int, inwards int64) *big.Int {
	q := new(big.Rat).Quo(bound, step)
	k := round(q)
	if exclusive && q.IsInt() {
		k.Add(k, big.NewInt(inwards))
	}
	return k
}

func floorRat(q *big.Rat) *big.Int {
	n, d := q.Num(), q.Denom()
	z := new(big.Int)
	m := new(big.Int)
	z.DivMod(n, d, m) // Euclidean: floor for positive d
	return z
}

func ceilRat(q *big.Rat) *big.Int {
	z := floorRat(q)
	if !q.IsInt() {
		z.Add(z, bigOne)
	}
	return z
}

func lcmRat(a, b *big.Rat) *big.Rat {
	// lcm(a/b, c/d) = lcm(a*d, c*b) / (b*d), on positive values.
	ad := new(big.Int).Mul(a.Num(), b.Denom())
	cb := new(big.Int).Mul(b.Num(), a.Denom())
	g := new(big.Int).GCD(nil, nil, ad, cb)
	l := new(big.Int).Mul(ad, cb)
	l.Quo(l, g)
	den := new(big.Int).Mul(a.Denom(), b.Denom())
	return new(big.Rat).SetFrac(l, den)
}

// gen draws a number: an integer when integer is set, else one that may have a fraction.
func (p *numPlan) gen(t *rapid.T, integer bool) (any, bool) {
	if integer {
		if !p.intOK {
			return nil, false
		}
		if p.fast {
			return json.Number(p.fastInt(t)), true
		}
		k := drawK(t, p.kInt)
		v := new(big.Rat).Mul(new(big.Rat).SetInt(k), p.stepInt)
		return json.Number(integerText(t, v)), true
	}
	if p.step != nil {
		r := p.kRange(p.step)
		if r.empty() {
			return nil, false
		}
		k := drawK(t, r)
		v := new(big.Rat).Mul(new(big.Rat).SetInt(k), p.step)
		return json.Number(decimalText(t, v)), true
	}
	// No multipleOf: a decimal with a few digits after the point, more if the range is narrow.
	d := draw.Int(t, 1, 4, "decimals")
	for ; d <= 60; d++ {
		step := new(big.Rat).SetFrac(bigOne, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil))
		r := p.kRange(step)
		if r.empty() {
			continue
		}
		k := drawK(t, r)
		v := new(big.Rat).Mul(new(big.Rat).SetInt(k), step)
		return json.Number(decimalText(t, v)), true
	}
	return nil, false
}

var (
	big1e15 = new(big.Int).Exp(big.NewInt(10), big.NewInt(15), nil)
	big1e21 = new(big.Int).Exp(big.NewInt(10), big.NewInt(21), nil)
)

// Generators drawn from on every value, built once (building a rapid generator per draw
// allocates and costs more than the draw itself; the values drawn are the same).
var (
	offset100Gen  = rapid.IntRange(-100, 100)
	offset1000Gen = rapid.IntRange(-1000, 1000)
	mag1e15Gen    = rapid.Int64Range(0, int64(1e15))
	magHalfGen    = rapid.Int64Range(0, math.MaxInt64/2)
	int64Gen      = rapid.Int64()
	bits63Gen     = rapid.Int64Range(0, 1<<63-1)
	bits64Gen     = rapid.Uint64()
)

// drawK draws an integer in r, biased to the bounds, to zero and to big magnitudes.
func drawK(t *rapid.T, r kRange) *big.Int {
	clamp := func(k *big.Int) *big.Int {
		if r.min != nil && k.Cmp(r.min) < 0 {
			return new(big.Int).Set(r.min)
		}
		if r.max != nil && k.Cmp(r.max) > 0 {
			return new(big.Int).Set(r.max)
		}
		return k
	}
	switch mode := numMode(t); mode {
	case 0:
		if r.min != nil {
			return new(big.Int).Set(r.min)
		}
	case 1:
		if r.max != nil {
			return new(big.Int).Set(r.max)
		}
	case 2:
		return clamp(new(big.Int))
	case 3:
		// A big magnitude: past 2^53 sometimes, past int64 rarely.
		lim := big1e15
		if draw.Int(t, 0, 3, "huge") == 0 {
			lim = big1e21
		}
		k := new(big.Int).Rand(randFrom(t), lim)
		if draw.Bool(t, "neg") {
			k.Neg(k)
		}
		if r.min != nil && r.max != nil {
			return uniformK(t, r)
		}
		if r.min != nil {
			return k.Abs(k).Add(k, r.min)
		}
		if r.max != nil {
			return new(big.Int).Sub(r.max, k.Abs(k))
		}
		return k
	}
	if r.min != nil && r.max != nil {
		span := new(big.Int).Sub(r.max, r.min)
		if span.Cmp(big.NewInt(2000)) > 0 && draw.Bool(t, "nearZero") {
			anchor := clamp(new(big.Int))
			off := big.NewInt(int64(offset100Gen.Draw(t, "offset")))
			return clamp(off.Add(off, anchor))
		}
		return uniformK(t, r)
	}
	anchor := clamp(new(big.Int))
	off := big.NewInt(int64(offset1000Gen.Draw(t, "offset")))
	return clamp(off.Add(off, anchor))
}

func uniformK(t *rapid.T, r kRange) *big.Int {
	span := new(big.Int).Sub(r.max, r.min)
	if span.IsInt64() {
		off := rapid.Int64Range(0, span.Int64()).Draw(t, "k")
		return new(big.Int).Add(r.min, big.NewInt(off))
	}
	off := new(big.Int).Rand(randFrom(t), new(big.Int).Add(span, bigOne))
	return off.Add(off, r.min)
}

// randFrom makes a math/rand source whose bits are drawn through rapid, so big draws shrink too.
func randFrom(t *rapid.T) *rand.Rand { return rand.New(&bigRand{t: t}) }

type bigRand struct{ t *rapid.T }

func (b *bigRand) Int63() int64 { return bits63Gen.Draw(b.t, "bits") }
func (b *bigRand) Seed(int64)   {}
func (b *bigRand) Uint64() uint64 {
	return bits64Gen.Draw(b.t, "bits")
}

// numMode draws which number to make: 0 the lower bound, 1 the upper bound, 2 zero (or the
// bound nearest to it), 3 a big magnitude, each one time in eight, else 4: anywhere in range.
// (Bits, not a biased rapid.IntRange: see draw.Chance; the odds are close to the IntRange(0, 9)
// this was, whose 0..3 came 10-16% of the time each.)
func numMode(t *rapid.T) int {
	if draw.Bool(t, "numAny") {
		return 4
	}
	return draw.Bits(t, 2, "numMode")
}

// The ways intForm writes an integer.
const (
	formPlain = iota // as it is
	formPoint        // with ".0"
	formOther        // zero as "-0", a multiple of 100 with an exponent (1e2), else as it is
)

// intForm draws how to write an integer: formPoint and formOther 9 times in 64 each.
func intForm(t *rapid.T) int {
	if !draw.Chance(t, 9, 5, "intForm") {
		return formPlain
	}
	if draw.Bool(t, "intPoint") {
		return formPoint
	}
	return formOther
}

// integerText writes an integer value, sometimes as 1.0, -0 or 1e2: all the same integer.
func integerText(t *rapid.T, v *big.Rat) string {
	s := v.Num().String()
	switch intForm(t) {
	case formPoint:
		return s + ".0"
	case formOther:
		if s == "0" {
			return "-0"
		}
		if strings.HasSuffix(s, "00") && len(s) < 25 {
			z := len(s) - len(strings.TrimRight(s, "0"))
			return strings.TrimRight(s, "0") + "e" + itoa(z)
		}
	}
	return s
}

// decimalText writes v (a terminating decimal) exactly, sometimes in exponent form.
func decimalText(t *rapid.T, v *big.Rat) string {
	s := jsonvalue.RatText(v)
	if draw.Int(t, 0, 15, "numForm") == 0 {
		if e, ok := expForm(s); ok {
			return e
		}
	}
	if s == "0" && draw.Int(t, 0, 7, "negZero") == 0 {
		return "-0"
	}
	return s
}

// expForm rewrites a decimal like 0.0015 as 1.5e-3.
func expForm(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" || len(digits) > 12 {
		return "", false
	}
	// value = 0.digits... * 10^exp where position of first significant digit decides exp.
	lead := len(intPart+frac) - len(strings.TrimLeft(intPart+frac, "0"))
	exp := len(intPart) - lead - 1
	digits = strings.TrimRight(digits, "0")
	m := digits[:1]
	if len(digits) > 1 {
		m += "." + digits[1:]
	}
	out := m + "e" + itoa(exp)
	if neg {
		out = "-" + out
	}
	return out, true
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// hugeInt draws an integer past int64: 20 to 24 digits, which float64 and int64 parsers cannot
// hold exactly.
func hugeInt(t *rapid.T) string {
	n := draw.Int(t, 20, 24, "digits")
	b := make([]byte, n)
	b[0] = byte('1' + draw.Int(t, 0, 8, "digit"))
	for i := 1; i < n; i++ {
		b[i] = byte('0' + draw.Int(t, 0, 9, "digit"))
	}
	if draw.Bool(t, "neg") {
		return "-" + string(b)
	}
	return string(b)
}

// bigInt draws a big magnitude from the one bound there is (or around 0 when there is none):
// up to 10^15 (exact in float64) or up to the int64 limit (past 2^53).
func (p *numPlan) bigInt(t *rapid.T) int64 {
	magGen := mag1e15Gen
	if draw.Bool(t, "past2^53") {
		magGen = magHalfGen
	}
	mag := magGen.Draw(t, "big")
	switch {
	case p.fminB:
		if k := p.fmin + mag; k >= p.fmin {
			return k
		}
		return math.MaxInt64
	case p.fmaxB:
		if k := p.fmax - mag; k <= p.fmax {
			return k
		}
		return math.MinInt64
	}
	if draw.Bool(t, "neg") {
		mag = -mag
	}
	return mag
}

// fastInt draws an integer in [fmin, fmax] with the modes of drawK, in int64 arithmetic.
func (p *numPlan) fastInt(t *rapid.T) string {
	clamp := func(k int64) int64 { return min(max(k, p.fmin), p.fmax) }
	var k int64
	switch mode := numMode(t); {
	case mode == 0 && p.fminB:
		k = p.fmin
	case mode == 1 && p.fmaxB:
		k = p.fmax
	case mode == 2:
		k = clamp(0)
	case mode == 3 && !p.fminB && !p.fmaxB && draw.Int(t, 0, 3, "huge") == 0:
		return hugeInt(t)
	case mode == 3 && !(p.fminB && p.fmaxB):
		k = p.bigInt(t)
	case p.fminB && p.fmaxB && (p.fmax-p.fmin <= 2000 || p.fmax-p.fmin < 0 || !draw.Bool(t, "nearZero")):
		if p.fmax-p.fmin < 0 { // span overflows int64
			k = int64Gen.Draw(t, "k")
			k = clamp(k)
		} else {
			k = p.fkGen.Draw(t, "k")
		}
	default:
		k = clamp(clamp(0) + int64(offset1000Gen.Draw(t, "offset")))
	}
	s := strconv.FormatInt(k, 10)
	switch intForm(t) {
	case formPoint:
		return s + ".0"
	case formOther:
		if k == 0 {
			return "-0"
		}
		if k%100 == 0 {
			z := len(s) - len(strings.TrimRight(s, "0"))
			return strings.TrimRight(s, "0") + "e" + strconv.Itoa(z)
		}
	}
	return s
}
