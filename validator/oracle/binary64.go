package oracle

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/schemawalk"
	"github.com/toolproof/toolproof/validator"
)

// The binary64 rule. JSON Schema judges exact values, but nearly every gate reads JSON numbers
// as IEEE binary64 doubles, and RFC 8259 §6 leaves precision beyond them to implementations. A
// case whose verdict changes when every number in the arguments and in the schema is read as its
// nearest double (judged exactly on those doubles, or with the floating-point division that
// multipleOf checks use) owes no verdict: its expectation is Either.

// doubles is the binary64 reading of one tool's schema.
type doubles struct {
	sensitive bool        // some keyword compares numbers (bounds, integer, multipleOf, enum, const, uniqueItems)
	oracle    *Gatekeeper // the schema with its numbers rounded to doubles (nil: none or unroundable)
	broken    bool        // the schema holds a number beyond every double
	multiples []*big.Rat  // every multipleOf of the schema
	places    *place      // where each applies (nil: none applies anywhere)
	// round reads a number as a double: its shortest decimal where numbers are only compared
	// (cheap, and most numbers are written so already), its exact value where multipleOf
	// divides them.
	round func(json.Number) (json.Number, bool)
	keeps func([]byte) bool // round gives the number back as it is, told without parsing
	exact bool              // the schema reads the same as doubles: only the arguments' numbers matter
	// conditional: the schema has if/then/else, contains (with minContains or maxContains), or
	// unevaluatedProperties or unevaluatedItems: subschemas whose reach depends on what other
	// subschemas find (and so on numbers), and whose failures may be reported by the keywords
	// inside them alone. holdsAsDoubles is not trusted for such a schema.
	conditional bool

	rounded []byte    // the schema read as doubles, as text, when that differs
	once    sync.Once // compiles rounded into oracle

	o              *Oracle             // the oracle whose readings these are
	params         func() (any, error) // the parameters schema document, parsed once for every reading
	mixedSchemaBig bool                // the schema holds an integer literal a double may not hold
	mixed, serde   func() *Gatekeeper  // the mixed and serde_json readings, made on first need

	// Where a multipleOf divides, more readings (divisions.go), made on first need.
	divOnce                     sync.Once
	floatOracle, shortestOracle *Gatekeeper
	pythonOracle                *Gatekeeper
	mixedFloatOracle            *Gatekeeper
}

func newDoubles(o *Oracle) *doubles {
	gk := o.exact
	d := &doubles{o: o}
	d.params = sync.OnceValues(func() (any, error) { return jsonvalue.Parse(gk.Tool().Parameters) })
	d.mixed = sync.OnceValue(func() *Gatekeeper { return d.readAs(mixed64) })
	d.serde = sync.OnceValue(func() *Gatekeeper { return d.readAs(serde64) })
	dynamic := d.scan(gk.Schema())
	if !d.sensitive && !dynamic {
		return d
	}
	doc, err := d.params()
	if err != nil { // not seen for a schema that compiled; if it were, no verdict would hold
		d.sensitive, d.broken = true, true
		d.round, d.keeps = jsonvalue.Shortest64, jsonvalue.Shortest64Keeps
		return d
	}
	// A $dynamicRef may land on a subschema the walk above never reaches (one known only by its
	// $dynamicAnchor, in the tool's document even when the $dynamicRef is a meta-schema's): read
	// every keyword of the document instead, as if it applied somewhere. (Every $dynamicRef that
	// runs is reached by the walk, or by a jump from one that is: the walk sees one if any runs.)
	if dynamic {
		d.sensitive, d.conditional = true, true
		schemaKeywords(doc, func(k string, v any) {
			if n, ok := v.(json.Number); ok && k == "multipleOf" {
				if r, ok := jsonvalue.Rat(n); ok && r.Sign() > 0 {
					d.multiples = append(d.multiples, r)
				}
			}
		})
	}
	d.round, d.keeps = jsonvalue.Shortest64, jsonvalue.Shortest64Keeps
	if len(d.multiples) > 0 {
		d.round, d.keeps = jsonvalue.Binary64, jsonvalue.Binary64Keeps
		d.places = newPlaces(gk.Schema())
	}
	d.mixedSchemaBig = hasBigInteger(doc)
	rounded, changed, ok := jsonvalue.Round(doc, d.round)
	if !ok {
		d.broken = true
		return d
	}
	d.exact = !changed
	if d.exact {
		d.oracle = gk // the schema reads the same as doubles: the oracle itself
		return d
	}
	d.rounded = jsonvalue.MustMarshal(rounded)
	return d
}

// scan reads the compiled schema: whether some keyword compares numbers, its multipleOf values,
// whether it is conditional; and whether a $dynamicRef the walk reaches (the tool's or a
// meta-schema's) may jump where the walk does not.
func (d *doubles) scan(root *jsonschema.Schema) (dynamic bool) {
	schemawalk.Each(root, func(s *jsonschema.Schema) {
		if s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil ||
			s.MultipleOf != nil || s.UniqueItems || s.Enum != nil || s.Const != nil ||
			s.Types != nil && slices.Contains(s.Types.ToStrings(), "integer") {
			d.sensitive = true
		}
		if s.MultipleOf != nil {
			d.multiples = append(d.multiples, s.MultipleOf)
		}
		if s.If != nil || s.Then != nil || s.Else != nil || s.Contains != nil || s.MinContains != nil ||
			s.MaxContains != nil || s.UnevaluatedProperties != nil || s.UnevaluatedItems != nil {
			d.conditional = true
		}
		dynamic = dynamic || s.DynamicRef != nil
	})
	return dynamic
}

// roundedOracle is the oracle of the schema read as doubles, compiled on first need (most
// values never need it); nil, with broken set, when rounding made the schema unusable (a
// multipleOf of 0, say).
func (d *doubles) roundedOracle() *Gatekeeper {
	d.once.Do(func() {
		if d.oracle != nil {
			return
		}
		if d.oracle = d.o.readAs(d.rounded, 0); d.oracle == nil {
			d.broken = true
		}
	})
	return d.oracle
}

// The mixed reading, as Python's json and Jackson read numbers: an integer literal (no
// fraction, no exponent) exactly, any other literal as its nearest double, in the schema and the
// arguments alike. serde_json's (without arbitrary_precision) keeps an integer literal exactly
// only within 64 bits (i64 or u64); a longer one is a double. Each differs from the other
// readings only where an integer literal is beyond what a double holds exactly, so they are
// tried only then.

// mixed64 reads n as the mixed reading does.
func mixed64(n json.Number) (json.Number, bool) {
	if integerLiteral(string(n)) {
		return n, true
	}
	return jsonvalue.Binary64(n)
}

// serde64 reads n as serde_json does.
func serde64(n json.Number) (json.Number, bool) {
	if s := string(n); integerLiteral(s) {
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, true
		}
		if _, err := strconv.ParseUint(s, 10, 64); err == nil {
			return n, true
		}
	}
	return jsonvalue.Binary64(n)
}

// integerLiteral reports whether s is written without fraction or exponent.
func integerLiteral(s string) bool { return !strings.ContainsAny(s, ".eE") }

// isBigInteger reports whether n is an integer literal of more than 15 digits (one a double may
// not hold exactly).
func isBigInteger(n json.Number) bool {
	s := strings.TrimPrefix(string(n), "-")
	return len(s) > 15 && integerLiteral(s)
}

// hasBigInteger reports whether v holds such an integer literal.
func hasBigInteger(v any) bool {
	big := false
	jsonvalue.Numbers(v, func(n json.Number) { big = big || isBigInteger(n) })
	return big
}

// readAs compiles the schema with its numbers read by round (the oracle itself when none
// changes); nil when it cannot be read so.
func (d *doubles) readAs(round func(json.Number) (json.Number, bool)) *Gatekeeper {
	doc, err := d.params()
	if err != nil {
		return nil
	}
	rounded, changed, ok := jsonvalue.Round(doc, round)
	if !ok {
		return nil
	}
	if !changed {
		return d.o.exact
	}
	return d.o.readAs(jsonvalue.MustMarshal(rounded), 0)
}

// schemaKeywords calls fn with every member of every object in the schema document doc. Data
// (enum, const, default, examples) is read as well: reading too much only makes the check more
// careful.
func schemaKeywords(doc any, fn func(key string, value any)) {
	switch x := doc.(type) {
	case map[string]any:
		for k, v := range x {
			fn(k, v)
			schemaKeywords(v, fn)
		}
	case []any:
		for _, v := range x {
			schemaKeywords(v, fn)
		}
	}
}

// intDiffers reports whether the verdict on v (valid: the exact one) changes when v's numbers
// are read by round against o, the schema read so; the caller knows that the schema or v holds
// a big integer literal.
func (d *doubles) intDiffers(o *Gatekeeper, round func(json.Number) (json.Number, bool), v any, valid bool) bool {
	if o == nil {
		return true // the schema cannot be read this way: no verdict holds
	}
	rounded, changed, ok := jsonvalue.Round(v, round)
	if !ok {
		return true
	}
	if !changed && o == d.o.exact {
		return false // the same value against the same schema: the exact verdict
	}
	return o.Valid(rounded) != valid
}

// differ reports whether the verdict on v changes in the binary64 reading; issues are what the
// oracle found in v (none: v is valid). text, when not nil, is v's JSON text as
// jsonvalue.Marshal writes it, from a value whose numbers are all json.Number (as parsed and
// generated values are): the numbers the walk would read are then the text's.
func (d *doubles) differ(v any, text []byte, issues []validator.Issue) bool {
	if !d.sensitive {
		return false
	}
	rounded, changed, ok, bigInteger, hasNumber := d.readNumbers(v, text)
	if !hasNumber {
		return false
	}
	if d.broken || !ok {
		return true // the schema, or a number of v, is beyond every double
	}
	valid := len(issues) == 0
	// An invalid value that fails where no number is looked at stays invalid in the other
	// readings: they need not be validated (only be usable).
	holds := !valid && !d.conditional && holdsAsDoubles(v, issues)
	// When neither the schema nor the arguments read otherwise as doubles, nothing can change.
	if changed || !d.exact {
		o := d.roundedOracle()
		if o == nil {
			return true // the schema read as doubles is unusable: no verdict holds
		}
		if !holds && o.Valid(rounded) != valid {
			return true
		}
	}
	if d.mixedSchemaBig || bigInteger {
		if holds {
			if d.mixed() == nil || d.serde() == nil {
				return true // the schema cannot be read this way: no verdict holds
			}
		} else if d.intDiffers(d.mixed(), mixed64, v, valid) || d.intDiffers(d.serde(), serde64, v, valid) {
			return true
		}
	}
	// How a multipleOf divides matters only where one may apply to a number of v.
	if len(d.multiples) > 0 && !holds && divisibleAt(d.places, v, d.multiples) && d.divisionsDiffer(v, rounded, valid) {
		return true
	}
	// Floating-point division can change a multipleOf verdict either way (and, under not or in
	// a branch, the value's); a value that fails for another keyword only stays invalid. Each
	// number is divided by the multipleOf values that may apply at its place (multiples.go).
	// (The readings of divisionsDiffer judge the whole value so; this is kept as well, a
	// reading of each number on its own.)
	return (valid || mayTurnOnMultiple(issues)) && quotientAt(d.places, v, d.multiples)
}

// readNumbers reads v's numbers as doubles (from text, when it is given, without a walk where
// every number there reads back as written: v then reads the same and holds no big integer).
// It returns the value so read, whether a number changed, whether every number could be read,
// whether one is a big integer literal (isBigInteger), and whether v holds a number at all.
func (d *doubles) readNumbers(v any, text []byte) (rounded any, changed, ok, bigInteger, hasNumber bool) {
	if text != nil {
		plain := true
		jsonvalue.NumberTokens(text, func(start, end int) bool {
			hasNumber = true
			plain = d.keeps(text[start:end])
			return plain
		})
		if plain {
			return v, false, true, false, hasNumber
		}
	}
	// One walk over the numbers reads them as doubles and says what the readings need to know.
	hasNumber = false
	rounded, changed, ok = jsonvalue.Round(v, func(n json.Number) (json.Number, bool) {
		hasNumber = true
		bigInteger = bigInteger || isBigInteger(n)
		return d.round(n)
	})
	return rounded, changed, ok, bigInteger, hasNumber
}

// holdsAsDoubles reports whether v, invalid with these issues, stays invalid however its numbers
// and the schema's are read, for a schema without if/then/else, contains or unevaluated* (see
// doubles.conditional: what those reach depends on what other subschemas find, and their
// failures can come without a keyword that says so). It does when some issue is of a keyword
// that looks at no number (keys, lengths and sizes, strings, the JSON type of a value that is
// not a number) and no issue is of anyOf, oneOf or not, which are reported above the failures
// of their branches: the failing keyword then applies at its place in every reading
// (properties, patternProperties, additionalProperties, items, prefixItems, dependentSchemas,
// $ref and allOf reach it by keys and indices, whatever the numbers), and fails there alike. A
// failure inside a branch that another branch makes good is not reported, so it never counts.
// (contentSchema is not asserted by the oracle; if it were, its issues would have paths inside
// the decoded content, and Get would read the wrong value.)
func holdsAsDoubles(v any, issues []validator.Issue) bool {
	for _, is := range issues {
		switch is.Keyword {
		case "anyOf", "oneOf", "not", "then", "else", "contains", "minContains", "maxContains", "":
			return false
		}
	}
	for _, is := range issues {
		switch is.Keyword {
		case "required", "dependentRequired", "additionalProperties", "minLength", "maxLength", "pattern",
			"minItems", "maxItems", "minProperties", "maxProperties":
			return true
		case "type":
			if x, ok := jsonvalue.Get(v, is.Path); ok {
				if _, isNumber := x.(json.Number); !isNumber {
					return true
				}
			}
		}
	}
	return false
}

// mayTurnOnMultiple reports whether some issue may be a multipleOf failure, directly or inside
// a keyword that combines subschemas; an issue of any other keyword stays whatever the
// division says.
func mayTurnOnMultiple(issues []validator.Issue) bool {
	for _, is := range issues {
		switch is.Keyword {
		case "multipleOf", "anyOf", "oneOf", "allOf", "not", "if", "then", "else", "$ref", "$dynamicRef",
			"dependentSchemas", "contains", "items", "prefixItems", "properties", "patternProperties",
			"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "":
			return true
		}
	}
	return false
}

// quotientDiffers reports whether n / m is an integer exactly but not in floating point, or the
// other way round, for some m: a gate that checks multipleOf by dividing doubles reads it so.
func quotientDiffers(n json.Number, ms []*big.Rat) bool {
	x, ok := jsonvalue.Rat(n)
	if !ok {
		return true
	}
	fx, _ := x.Float64()
	for _, m := range ms {
		exact := new(big.Rat).Quo(x, m).IsInt()
		fm, _ := m.Float64()
		q := fx / fm
		float := !math.IsInf(q, 0) && !math.IsNaN(q) && q == math.Trunc(q)
		// Either way round: a multipleOf under not, or in a branch, turns a difference in any
		// direction into another verdict.
		if float != exact {
			return true
		}
	}
	return false
}
