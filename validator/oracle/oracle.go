package oracle

import (
	"sync"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// Oracle is what judges toolproof's cases for one tool: the tool's schema in every reading a
// correct gate may have, each compiled once, on first need, and shared by every caller. The
// readings are the exact one (the Gatekeeper itself), formats as annotations (Lax), and the
// readings of the binary64 rule (numbers as doubles, the mixed and serde_json readings, and the
// ways a multipleOf may divide: binary64.go, divisions.go). A reading whose schema document is
// the same as another's is that one. It is safe for concurrent use; Gatekeeper.Oracle gives it.
type Oracle struct {
	exact *Gatekeeper

	mu       sync.Mutex
	readings map[readingKey]*reading

	doublesOnce sync.Once
	doubles     *doubles // the binary64 rule's reading of the schema (binary64.go)
}

// readingKey names one compiled reading: the schema document, and how it is compiled.
type readingKey struct {
	params   string // the parameters schema, as text
	lax      bool   // formats as annotations
	division int8   // 0: exact multipleOf; 1: marked ones in floating point; 2: and exact on overflow
}

// reading is one compiled reading; gk is nil when the schema cannot be read so.
type reading struct {
	once sync.Once
	gk   *Gatekeeper
}

// Oracle is the oracle of the tool compiled in g, made on first call and the same after.
func (g *Gatekeeper) Oracle() *Oracle {
	g.oracleOnce.Do(func() { g.oracle = &Oracle{exact: g, readings: map[readingKey]*reading{}} })
	return g.oracle
}

// Gatekeeper is the exact reading: the tool as compiled.
func (o *Oracle) Gatekeeper() *Gatekeeper { return o.exact }

// Lax is the tool read with format as an annotation, as draft 2020-12 has it by default; nil
// when it cannot be compiled so. A distortion is kept only if it is invalid either way, so no
// validator is blamed for the choice.
func (o *Oracle) Lax() *Gatekeeper {
	return o.compile(readingKey{params: string(o.exact.tool.Parameters), lax: true})
}

// readAs is the tool with params for its parameters schema, its multipleOf divided as
// division says (readingKey.division); the exact reading itself when nothing differs from it,
// nil when it cannot be compiled.
func (o *Oracle) readAs(params []byte, division int8) *Gatekeeper {
	return o.compile(readingKey{params: string(params), division: division})
}

// compile returns the reading k, compiling it on first need.
func (o *Oracle) compile(k readingKey) *Gatekeeper {
	t := o.exact.tool
	if !k.lax && k.division == 0 && k.params == string(t.Parameters) {
		return o.exact
	}
	o.mu.Lock()
	r, ok := o.readings[k]
	if !ok {
		r = &reading{}
		o.readings[k] = r
	}
	o.mu.Unlock()
	r.once.Do(func() {
		var opts []CompileOption
		if k.lax {
			opts = append(opts, FormatsAsAnnotations())
		}
		if k.division > 0 {
			opts = append(opts, FloatDivision(k.division == 2))
		}
		rt := tool.Tool{Name: t.Name, Description: t.Description, Parameters: []byte(k.params), Source: t.Source}
		if gk, err := Compile(rt, opts...); err == nil {
			r.gk = gk
		}
	})
	return r.gk
}

// binary64 is the binary64 rule's reading of the schema, made on first need.
func (o *Oracle) binary64() *doubles {
	o.doublesOnce.Do(func() { o.doubles = newDoubles(o) })
	return o.doubles
}

// DoublesDiffer reports whether the verdict on v changes when every number in v and in the
// schema is read as its nearest binary64 double (or divided as doubles are): such a case owes no
// verdict, since RFC 8259 leaves that precision to implementations. issues are what Causes
// finds in v (none: v is valid); text, when not nil, is v's JSON text as jsonvalue.Marshal
// writes it, from a value whose numbers are all json.Number (it spares a walk).
func (o *Oracle) DoublesDiffer(v any, text []byte, issues []validator.Issue) bool {
	return o.binary64().differ(v, text, issues)
}

// The oracle answers three questions about a value, each as issues (nil when v is valid):
// Errors, where it fails (an alternative, anyOf, oneOf or not, once at its own place); Causes,
// why it fails (every failing branch of every alternative too); and Explain, the causes with
// their messages, for people.

// Explain is Causes with the validator's message of each issue.
func (o *Oracle) Explain(v any) []validator.Issue { return o.exact.validate(v, true, true) }

// Errors is where v fails: the keyword and place of each error, an alternative once at its
// place, without messages.
func (o *Oracle) Errors(v any) []validator.Issue { return o.exact.validate(v, false, false) }

// Causes is why v fails: the keyword and place of each error and of every failing branch of an
// alternative, without messages (cheaper than Explain).
func (o *Oracle) Causes(v any) []validator.Issue { return o.exact.validate(v, true, false) }

// CausesAndErrors is Causes, and a function that returns Errors from the same validation, for a
// caller that needs Errors only sometimes.
func (o *Oracle) CausesAndErrors(v any) (causes []validator.Issue, errors func() []validator.Issue) {
	err := o.exact.schema.Validate(v)
	return issuesOf(err, v, true, false), func() []validator.Issue { return issuesOf(err, v, false, false) }
}
