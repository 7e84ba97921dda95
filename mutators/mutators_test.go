package mutators_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

type fixture struct {
	gk  *oracle.Gatekeeper
	gen *generate.Generator
	ctx *mutators.Context
}

func fixtures(t *testing.T) []fixture {
	t.Helper()
	set, err := tool.Load("../validator/tool/sample/tools")
	if err != nil {
		t.Fatal(err)
	}
	var gks []*oracle.Gatekeeper
	for _, tl := range set.Tools {
		gk, err := oracle.Compile(tl)
		if err != nil {
			t.Fatal(err)
		}
		gks = append(gks, gk)
	}
	var out []fixture
	for _, gk := range gks {
		g, err := generate.New(gk)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fixture{gk, g, mutators.NewContext(gk, mutators.SiblingsOf(set.Tools))})
	}
	return out
}

func fixtureFor(t *testing.T, schema string) fixture {
	t.Helper()
	gk, g := gentest.Schema(t, schema)
	return fixture{gk, g, mutators.NewContext(gk, nil)}
}

// failer is rt.Fatalf in a rapid property, or a collector where the draw runs in
// Generator.Example (which retries on a panic and would hide a rt.Fatalf).
type failer interface {
	Fatalf(format string, args ...any)
}

// collector records failures; report them with t.Errorf after the draws.
type collector struct{ msgs []string }

func (c *collector) Fatalf(format string, args ...any) {
	c.msgs = append(c.msgs, fmt.Sprintf(format, args...))
}

func (c *collector) report(t *testing.T) {
	t.Helper()
	for i, m := range c.msgs {
		if i == 5 {
			t.Errorf("... and %d more", len(c.msgs)-5)
			break
		}
		t.Error(m)
	}
}

// checkMutation asserts the contract of one mutation.
func checkMutation(t failer, f fixture, m corpus.Case, class corpus.Class) {
	if m.Class != class {
		t.Fatalf("mutator %s produced class %s", class, m.Class)
	}
	if m.Reason == "" || m.Variant == "" {
		t.Fatalf("%s: no reason or variant: %+v", class, m)
	}
	if _, err := jsonvalue.SplitPointer(m.Path); err != nil {
		t.Fatalf("%s: bad path %q", class, m.Path)
	}
	if m.Canary != "" && !bytes.Contains(m.Args, []byte(m.Canary)) {
		t.Fatalf("%s: canary %q not in %s", class, m.Canary, m.Args)
	}
	// A value mutation's text is canonical (written whole or spliced from the valid value's).
	if !m.Raw {
		if canon := jsonvalue.MustMarshal(mustParse(t, m.Args)); !bytes.Equal(canon, m.Args) {
			t.Fatalf("%s (%s): text %s, canonical %s", class, m.Variant, m.Args, canon)
		}
	}
	switch m.Expect {
	case corpus.Reject:
		if m.Keyword == "" {
			t.Fatalf("%s: a must-reject case without keyword", class)
		}
		if _, err := f.gk.Parse(m.Args); err == nil {
			t.Fatalf("%s (%s): must-reject case accepted by the oracle: %s", class, m.Variant, m.Args)
		}
		if class == mutators.MalformedJSON && jsonvalue.Valid(m.Args) {
			t.Fatalf("malformed_json case is valid JSON: %q", m.Args)
		}
		if !m.Raw && f.ctx.DoublesDiffer(mustParse(t, m.Args), false) {
			t.Fatalf("%s (%s): a must-reject case whose verdict changes when its numbers are read as doubles: %s",
				class, m.Variant, m.Args)
		}
		if !m.Raw {
			issues := f.gk.Oracle().Explain(mustParse(t, m.Args))
			found := false
			for _, is := range issues {
				if is.Keyword == m.Keyword &&
					(is.Path == m.Path || is.Path == jsonvalue.Parent(m.Path) || jsonvalue.IsPrefix(m.Path, is.Path)) {
					found = true
				}
			}
			if !found {
				t.Fatalf("%s: oracle issues %v do not include %s at %s", class, issues, m.Keyword, m.Path)
			}
		}
	case corpus.Either:
		// Implementation-defined input, or a value whose verdict changes when its numbers are
		// read as doubles (the binary64 rule).
		if class != mutators.ImplementationDef && (m.Raw || !f.ctx.DoublesDiffer(mustParse(t, m.Args), false)) {
			t.Fatalf("%s produced an either case: %s (%s)", class, m.Args, m.Reason)
		}
	default:
		t.Fatalf("%s: expect %q", class, m.Expect)
	}
}

func mustParse(t failer, b []byte) any {
	v, err := jsonvalue.Parse(b)
	if err != nil {
		t.Fatalf("value mutation is not JSON: %v", err)
	}
	return v
}

// TestEveryClassOnTheCorpus is the property of every class: over the project's own tools, every
// must-reject case is rejected by the oracle for its keyword at its place, and every
// implementation-defined case is recorded as either.
func TestEveryClassOnTheCorpus(t *testing.T) {
	produced := map[corpus.Class]int{}
	var mu sync.Mutex // guards produced, counted by the tools side by side
	t.Run("tools", func(t *testing.T) {
		for _, f := range fixtures(t) {
			t.Run(f.gk.Tool().Name, func(t *testing.T) {
				t.Parallel() // each tool's Context and Gatekeeper are its own
				rapid.Check(t, func(rt *rapid.T) {
					v, ok := f.gen.Draw(rt)
					if !ok {
						rt.Skip("no value")
					}
					tg := f.ctx.Target(v)
					for _, m := range mutators.All() {
						c, ok := m.Mutate(rt, tg)
						if !ok {
							continue
						}
						mu.Lock()
						produced[m.Class()]++
						mu.Unlock()
						checkMutation(rt, f, c, m.Class())
					}
				})
			})
		}
	})
	for _, c := range mutators.Classes() {
		if produced[c] == 0 {
			t.Errorf("%s never applied to any corpus tool", c)
		}
	}
}

// applies reports how many of n draws the class applied to.
func applies(t *testing.T, f fixture, class corpus.Class, n int) int {
	t.Helper()
	ms, err := mutators.Select(string(class))
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	var fails collector
	gen := rapid.Custom(func(rt *rapid.T) int {
		v, ok := f.gen.Draw(rt)
		if !ok {
			return 0
		}
		mu, ok := ms[0].Mutate(rt, f.ctx.Target(v))
		if !ok {
			return 0
		}
		checkMutation(&fails, f, mu, class)
		return 1
	})
	for i := 0; i < n; i++ {
		count += gen.Example(i)
	}
	fails.report(t)
	return count
}

func TestAppliesWhereItShouldAndNowhereElse(t *testing.T) {
	tests := []struct {
		class  corpus.Class
		schema string
		always bool // true: every draw; false: never
	}{
		{mutators.HallucinatedKey,
			`{"type":"object","properties":{"a":{"type":"string"},"o":{"type":"object"}},"required":["a"]}`, false},
		{mutators.HallucinatedKey,
			`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`,
			true},
		{mutators.HallucinatedKey,
			`{"type":"object","properties":{"o":{"type":"object","properties":{"x":{}},` +
				`"unevaluatedProperties":false}},"required":["o"]}`, true},
		{mutators.StringifiedType,
			`{"type":"object","properties":{"n":{"type":["integer","string"]}},"required":["n"],` +
				`"additionalProperties":false}`, false},
		{mutators.StringifiedType, `{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`, true},
		{mutators.OutOfRangeEnum, `{"type":"object","properties":{"env":{"type":"string"}},"required":["env"]}`, false},
		{mutators.OutOfRangeEnum,
			`{"type":"object","properties":{"env":{"enum":["dev","staging","prod"]}},"required":["env"]}`, true},
		{mutators.OutOfRangeEnum,
			`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":60}},"required":["n"]}`, true},
		{mutators.FlattenedArray,
			`{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}},"required":["n","s"]}`,
			false},
		{mutators.FlattenedArray,
			`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"},"minItems":2}},` +
				`"required":["tags"]}`, true},
		{mutators.FlattenedArray,
			`{"type":"object","properties":{"tags":{"anyOf":[{"type":"array","items":{"type":"string"},"minItems":1},` +
				`{"type":"string"}]}},"required":["tags"]}`, false},
		{mutators.MissingRequired, `{"type":"object","properties":{"a":{"type":"string"}}}`, false},
		{mutators.MissingRequired, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, true},
		{mutators.NullValue,
			`{"type":"object","properties":{"a":{"type":["string","null"]}},"required":["a"],` +
				`"additionalProperties":false}`, false},
		{mutators.NullValue, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, true},
		{mutators.JSONInString, `{"type":"object","properties":{"q":{"type":"object"}},"required":["q"]}`, true},
		{mutators.JSONInString,
			`{"type":"object","properties":{"q":{"type":["object","string"]}},"required":["q"],` +
				`"additionalProperties":false}`, false},
		{mutators.WrappedScalar,
			`{"type":"object","properties":{"ids":{"type":["string","array"]}},"required":["ids"],` +
				`"additionalProperties":false}`, false},
		{mutators.WrapperNesting, `{"type":"object","properties":{"a":{"type":"string"}}}`, false},
		{mutators.WrapperNesting, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, true},
		{mutators.RootNotObject, `{"type":"object"}`, true},
		{mutators.MalformedJSON, `{"type":"object"}`, true},
		{mutators.ImplementationDef, `{"type":"object"}`, true},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprintf("%d/%s", i, tc.class), func(t *testing.T) {
			const n = 60
			got := applies(t, fixtureFor(t, tc.schema), tc.class, n)
			if tc.always && got != n {
				t.Errorf("applied %d of %d times, want every time, to %s", got, n, tc.schema)
			}
			if !tc.always && got != 0 {
				t.Errorf("applied %d of %d times, want never, to %s", got, n, tc.schema)
			}
		})
	}
}

func TestBorrowedAndNearMissKeys(t *testing.T) {
	a := `{"type":"object","properties":{"timeoutSeconds":{"type":"integer"}},"required":["timeoutSeconds"],` +
		`"additionalProperties":false}`
	b := `{"type":"object","properties":{"max_results":{"type":"integer"}},"additionalProperties":false}`
	ga, _ := oracle.Compile(tool.Tool{Name: "a", Parameters: json.RawMessage(a)})
	gb, _ := oracle.Compile(tool.Tool{Name: "b", Parameters: json.RawMessage(b)})
	ctx := mutators.NewContext(ga, mutators.SiblingsOf([]tool.Tool{ga.Tool(), gb.Tool()}))
	g, _ := generate.New(ga)
	seen := map[string]string{}
	gen := rapid.Custom(func(rt *rapid.T) int {
		v, _ := g.Draw(rt)
		mu, ok := mutators.All()[2].Mutate(rt, ctx.Target(v))
		if ok {
			seen[mu.Variant] = mu.Path
		}
		return 0
	})
	for i := 0; i < 200; i++ {
		gen.Example(i)
	}
	if seen["borrowed"] != "/max_results" {
		t.Errorf("no key borrowed from the sibling tool: %v", seen)
	}
	if p := seen["near-miss"]; p == "" || strings.EqualFold(p, "/timeoutSeconds") {
		t.Errorf("no near-miss key: %v", seen)
	}
	if seen["invented"] == "" {
		t.Errorf("no invented key: %v", seen)
	}
}

func TestSameSeedSameMutation(t *testing.T) {
	f := fixtures(t)[0]
	draw := func(seed int) string {
		return rapid.Custom(func(rt *rapid.T) string {
			v, _ := f.gen.Draw(rt)
			var b strings.Builder
			for _, m := range mutators.All() {
				if mu, ok := m.Mutate(rt, f.ctx.Target(v)); ok {
					fmt.Fprintf(&b, "%s %s %q\n", mu.Class, mu.Path, mu.Args)
				}
			}
			return b.String()
		}).Example(seed)
	}
	if a, b := draw(7), draw(7); a != b {
		t.Fatalf("same seed, different mutations:\n%s\n%s", a, b)
	}
}

// A distortion invalid only because format is asserted (draft 2020-12 leaves that to the
// validator) is never a must-reject case: "ANY" passes the ipv4 branch where format is an
// annotation.
func TestNoCaseDependsOnFormatAssertion(t *testing.T) {
	f := fixtureFor(t, `{"type":"object","properties":{"source":{"anyOf":[{"type":"string","format":"ipv4"},`+
		`{"const":"any"}]}},"required":["source"],"additionalProperties":false}`)
	lax, err := oracle.Compile(f.gk.Tool(), oracle.FormatsAsAnnotations())
	if err != nil {
		t.Fatal(err)
	}
	var fails collector
	gen := rapid.Custom(func(rt *rapid.T) int {
		v, _ := f.gen.Draw(rt)
		tg := f.ctx.Target(v)
		for _, m := range mutators.All() {
			mu, ok := m.Mutate(rt, tg)
			if !ok || mu.Expect != corpus.Reject || mu.Raw {
				continue
			}
			if _, err := lax.Parse(mu.Args); err == nil {
				fails.Fatalf("%s case %s is valid where format is an annotation", mu.Class, mu.Args)
			}
		}
		return 0
	})
	for i := 0; i < 300; i++ {
		gen.Example(i)
	}
	fails.report(t)
}

// A key that should not be there is located by an issue at its object: the scope of a
// hallucinated key or a missing required one reaches its parent.
func TestScopeOfKeys(t *testing.T) {
	f := fixtureFor(t, `{"type":"object","properties":{"o":{"type":"object","properties":{"a":{"type":"string"}},`+
		`"required":["a"],"additionalProperties":false}},"required":["o"],"additionalProperties":false}`)
	ms, err := mutators.Select("hallucinated_key,missing_required")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		found := false
		for seed := 0; seed < 30 && !found; seed++ {
			c, ok := drawMutation(f, m, seed)
			if !ok || c.Expect != corpus.Reject || !strings.HasPrefix(c.Path, "/o/") {
				continue
			}
			found = true
			if c.Scope != "/o" {
				t.Errorf("%s at %s: scope %q, want the object /o", c.Class, c.Path, c.Scope)
			}
		}
		if !found {
			t.Errorf("%s: no case inside /o in 30 draws", m.Class())
		}
	}
}

// A distortion that flips an if makes its else fail elsewhere: the case names that place (a
// gate that stops at its first error may report it), and only places the value fails, not the
// branches of an anyOf it fails.
func TestAlsoInvalid(t *testing.T) {
	f := fixtureFor(t, `{"type":"object","properties":{
		"env":{"enum":["dev","prod"]},
		"replicas":{"type":"integer","minimum":11,"maximum":50},
		"mode":{"anyOf":[{"type":"string","enum":["a"]},{"type":"integer"}]}},
		"required":["env","replicas"],"additionalProperties":false,
		"if":{"properties":{"env":{"const":"prod"}},"required":["env"]},
		"then":{"required":["mode"]},
		"else":{"properties":{"replicas":{"maximum":10}}}}`)
	ms, err := mutators.Select("missing_required,wrong_type")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range ms {
		for seed := 0; seed < 60; seed++ {
			c, ok := drawMutation(f, m, seed)
			if !ok || c.Expect != corpus.Reject {
				continue
			}
			var v map[string]any
			if err := json.Unmarshal(c.Args, &v); err != nil {
				t.Fatal(err)
			}
			flipped := v["env"] != "prod" // env missing or of another type: else caps replicas (always > 10)
			want := []corpus.Place(nil)
			if flipped && c.Path != "/replicas" {
				want = []corpus.Place{{Path: "/replicas", Scope: "/replicas"}}
			}
			if fmt.Sprint(c.Also) != fmt.Sprint(want) {
				t.Errorf("%s at %s, args %s: also %v, want %v", c.Class, c.Path, c.Args, c.Also, want)
			}
			seen[fmt.Sprintf("%s %s %v", c.Class, c.Path, flipped)] = true
		}
	}
	for _, k := range []string{"missing_required /env true", "wrong_type /env true", "wrong_type /mode false"} {
		if !seen[k] {
			t.Errorf("no %s case in the draws (seen %v)", k, seen)
		}
	}
}

// drawMutation draws one valid value of f and one distortion of it by m, from seed.
func drawMutation(f fixture, m mutators.Mutator, seed int) (corpus.Case, bool) {
	type out struct {
		c  corpus.Case
		ok bool
	}
	r := rapid.Custom(func(rt *rapid.T) out {
		v, ok := f.gen.Draw(rt)
		if !ok {
			return out{}
		}
		c, ok := m.Mutate(rt, f.ctx.Target(v))
		return out{c, ok}
	}).Example(seed)
	return r.c, r.ok
}

// The readings of numbers a correct gate may make: exactly, all as doubles (JSON.parse), or
// integer literals exactly and the rest as doubles (Python's json). A value whose verdict any of
// them changes owes none.
func TestDoublesDiffer(t *testing.T) {
	for _, tc := range []struct {
		schema, value string
		valid, differ bool
	}{
		// 9007199254740993.0 is 2^53 as a double, below the exact minimum 2^53+1 (Python).
		{`{"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740993}}}`,
			`{"n":9007199254740993.0}`, true, true},
		// As doubles the minimum and the value are both 2^53: one below only exactly.
		{`{"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740993}}}`,
			`{"n":9007199254740992}`, false, true},
		{`{"type":"object","properties":{"n":{"type":"integer","minimum":9007199254740993}}}`,
			`{"n":9007199254740995}`, true, false},
		// 0.07 / 0.01 is 7.000000000000001 in doubles.
		{`{"type":"object","properties":{"a":{"type":"number","multipleOf":0.01}}}`, `{"a":0.07}`, true, true},
		{`{"type":"object","properties":{"a":{"type":"number","multipleOf":0.01}}}`, `{"a":0.5}`, true, true},
		{`{"type":"object","properties":{"a":{"type":"number","multipleOf":0.5}}}`, `{"a":2.5}`, true, false},
		// Under not: 1e19 is no multiple of 3 exactly, but 1e19/3 is a whole double.
		{`{"type":"object","properties":{"x":{"type":"integer","not":{"multipleOf":3}}}}`,
			`{"x":10000000000000000000}`, true, true},
		// A fraction a double keeps, and one it loses.
		{`{"type":"object","properties":{"k":{"type":"integer"}}}`, `{"k":20.5}`, false, false},
		{`{"type":"object","properties":{"k":{"type":"integer"}}}`, `{"k":10000000000000000000.5}`, false, true},
		{`{"type":"object","properties":{"k":{"type":"integer"}}}`, `{"k":1e400}`, true, true},
		{`{"type":"object","properties":{"s":{"type":"string"}}}`, `{"s":"x","n":1e400}`, true, false},
	} {
		f := fixtureFor(t, tc.schema)
		v := mustParse(t, []byte(tc.value))
		if got := f.gk.Valid(v); got != tc.valid {
			t.Fatalf("%s on %s: exact verdict %v, want %v", tc.value, tc.schema, got, tc.valid)
		}
		if got := f.ctx.DoublesDiffer(v, tc.valid); got != tc.differ {
			t.Errorf("%s on %s: DoublesDiffer %v, want %v", tc.value, tc.schema, got, tc.differ)
		}
	}
}
