package generate_test

// Benchmarks of the schema-driven generator against the floor the issue sets: a hand-written
// rapid generator of the same shape of values, the generator a careful person would write for
// each tool. bench/generate.sh runs these next to json-schema-faker and prints the table.
//
//	go test -run '^$' -bench 'BenchmarkGenerate' -benchmem ./harness/generate/
//
// How values are drawn. A *rapid.T only exists inside rapid.Check, and Generator.Example makes
// a new T (and a new random stream) for every value, which would be measured too. So each
// benchmark runs rapid.Check, and every rapid test case draws up to benchDrawsPerCase values in
// a row until b.N values have been drawn (rapid.Check is called again if its checks run out).
// Outside shrinking rapid does not record the random bit stream (it only counts the bits), so
// a test case may draw any number of values at no extra cost per value; rapid's own overhead
// per test case (about 0.2-0.4µs here) is amortised over benchDrawsPerCase values, a few ns
// each. Both generators are measured exactly this way, through the same *rapid.Generator.Draw
// of a rapid.Custom generator (Generator.Valid is one).

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// benchTools are the tools benchmarked, from ../../validator/tool/sample/tools.
var benchTools = []string{"read", "execute_code", "edit_files"}

// benchDrawsPerCase is how many values one rapid test case draws.
const benchDrawsPerCase = 100

// benchQuietTB drops rapid's "[rapid] OK, passed N tests" lines, which a benchmark would print on
// every run (benchmark logs are always shown); failures still go to the benchmark.
type benchQuietTB struct{ *testing.B }

func (benchQuietTB) Logf(string, ...any) {}
func (benchQuietTB) Log(...any)          {}

// benchDrawLoop calls draw b.N times inside rapid test cases, timing only the draws' test cases.
func benchDrawLoop(b *testing.B, draw func(t *rapid.T)) {
	b.Helper()
	b.ReportAllocs()
	remaining := b.N
	b.ResetTimer()
	for remaining > 0 {
		rapid.Check(benchQuietTB{b}, func(t *rapid.T) {
			for i := 0; i < benchDrawsPerCase && remaining > 0; i++ {
				draw(t)
				remaining--
			}
		})
		if b.Failed() {
			return
		}
	}
	b.StopTimer()
}

// benchSink keeps the drawn values alive so the compiler cannot drop the draws.
var benchSink any

type benchSubject struct {
	name        string
	gk          *oracle.Gatekeeper
	gen         *generate.Generator
	handwritten *rapid.Generator[any]
}

func loadBenchSubject(b *testing.B, name string) benchSubject {
	b.Helper()
	set, err := tool.Load(filepath.Join("..", "..", "validator", "tool", "sample", "tools", name+".json"))
	if err != nil {
		b.Fatal(err)
	}
	tl, ok := set.Lookup(name)
	if !ok {
		b.Fatalf("tool %q not found (skipped: %v)", name, set.Skipped)
	}
	gk, g := gentest.New(b, tl)
	hw, ok := hwGenerators[name]
	if !ok {
		b.Fatalf("no hand-written generator for %q", name)
	}
	return benchSubject{name: name, gk: gk, gen: g, handwritten: hw}
}

// benchCheckStats fails the benchmark if the schema-driven generator built values the oracle
// rejected or could not find values, and reports how often it retried or gave up.
func benchCheckStats(b *testing.B, g *generate.Generator, before generate.Stats) {
	b.Helper()
	st := g.Stats()
	if st.Bugs > before.Bugs {
		b.Fatalf("%d values rejected by the oracle; last: %s", st.Bugs-before.Bugs, st.LastBug)
	}
	if n := st.Values - before.Values; n > 0 {
		b.ReportMetric(float64(st.Retries-before.Retries)/float64(n), "retries/value")
		if st.Unreachable > before.Unreachable {
			b.ReportMetric(float64(st.Unreachable-before.Unreachable)/float64(n), "unreachable/value")
		}
	}
}

// BenchmarkGenerate compares, per tool, the schema-driven generator (which confirms every value
// with the oracle before returning it) with the hand-written rapid generator.
func BenchmarkGenerate(b *testing.B) {
	for _, name := range benchTools {
		b.Run(name, func(b *testing.B) {
			s := loadBenchSubject(b, name)
			// The generator alone (Build), as a hand-written generator is: no oracle.
			built := rapid.Custom(func(t *rapid.T) any {
				v, ok := s.gen.Build(t)
				if !ok {
					t.Skip("no value")
				}
				return v
			})
			b.Run("toolproof", func(b *testing.B) {
				sh := benchShapeOf(b, s, "toolproof", built)
				before := s.gen.Stats()
				benchDrawLoop(b, func(t *rapid.T) { benchSink = built.Draw(t, "") })
				benchCheckStats(b, s.gen, before)
				sh.report(b)
			})
			b.Run("handwritten", func(b *testing.B) {
				sh := benchShapeOf(b, s, "handwritten", s.handwritten)
				benchDrawLoop(b, func(t *rapid.T) { benchSink = s.handwritten.Draw(t, "") })
				sh.report(b)
			})
		})
	}
}

// BenchmarkGenerateWithOracle is generation plus one oracle validation, as the harness uses
// it: the schema-driven generator's Draw (which confirms every value with the oracle), the
// hand-written generator followed by gk.Valid(v), and oracle_only, gk.Valid on values drawn
// beforehand.
func BenchmarkGenerateWithOracle(b *testing.B) {
	for _, name := range benchTools {
		b.Run(name, func(b *testing.B) {
			s := loadBenchSubject(b, name)
			valid := s.gen.Valid()
			b.Run("toolproof", func(b *testing.B) {
				before := s.gen.Stats()
				benchDrawLoop(b, func(t *rapid.T) { benchSink = valid.Draw(t, "") })
				benchCheckStats(b, s.gen, before)
			})
			b.Run("handwritten", func(b *testing.B) {
				benchDrawLoop(b, func(t *rapid.T) {
					v := s.handwritten.Draw(t, "")
					if !s.gk.Valid(v) {
						t.Fatalf("invalid value %s", benchDescribe(v))
					}
					benchSink = v
				})
			})
			b.Run("oracle_only", func(b *testing.B) {
				pool := benchSamples(b, valid, 1024)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if !s.gk.Valid(pool[i%len(pool)]) {
						b.Fatal("invalid value in the pool")
					}
				}
			})
		})
	}
}

type benchShape struct{ bytes, nodes float64 }

var benchShapes = map[string]benchShape{}

// benchShapeOf measures the mean encoded size and number of JSON nodes of gen's values (measured
// once per process, untimed), to show that the hand-written floor makes values of a shape
// comparable to the schema-driven generator's: it is no floor if it makes much smaller ones.
// It also confirms that every sampled value is valid.
func benchShapeOf(b *testing.B, s benchSubject, who string, gen *rapid.Generator[any]) benchShape {
	b.Helper()
	key := s.name + "/" + who
	sh, ok := benchShapes[key]
	if !ok {
		vs := benchSamples(b, gen, 4000)
		var bytes, nodes int
		for _, v := range vs {
			j, err := jsonvalue.Marshal(v)
			if err != nil {
				b.Fatal(err)
			}
			if !s.gk.Valid(v) {
				b.Fatalf("%s made an invalid value: %s", who, j)
			}
			bytes += len(j)
			nodes += benchCountNodes(v)
		}
		sh = benchShape{float64(bytes) / float64(len(vs)), float64(nodes) / float64(len(vs))}
		benchShapes[key] = sh
	}
	return sh
}

// report adds the shape to the benchmark's line (after the timed loop: ResetTimer drops
// metrics reported before it).
func (sh benchShape) report(b *testing.B) {
	b.ReportMetric(sh.bytes, "json-bytes/value")
	b.ReportMetric(sh.nodes, "json-nodes/value")
}

// benchSamples draws n values from gen in one untimed rapid test case.
func benchSamples(b *testing.B, gen *rapid.Generator[any], n int) []any {
	b.Helper()
	var out []any
	rapid.Check(benchQuietTB{b}, func(t *rapid.T) {
		for len(out) < n {
			out = append(out, gen.Draw(t, ""))
		}
	})
	if len(out) < n {
		b.Fatalf("drew %d of %d values", len(out), n)
	}
	return out
}

func benchCountNodes(v any) int {
	n := 1
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			n += benchCountNodes(e)
		}
	case []any:
		for _, e := range v {
			n += benchCountNodes(e)
		}
	}
	return n
}

func benchDescribe(v any) string {
	j, err := jsonvalue.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(j)
}

// ---- the hand-written floor
//
// What a careful person writes by hand for each tool: optional properties present or absent by
// rapid.Bool, enums by rapid.SampledFrom, integers by rapid.IntRange/IntMin within the schema's
// bounds and written as json.Number, strings by rapid.String/StringN with the schema's
// minLength, tags by rapid.StringMatching on the schema's pattern and distinct. Generators are
// built once; values are the map[string]any / []any / string / bool / json.Number shapes the
// schema-driven generator returns.
//
// Collection bounds are chosen so that the mean sizes match the schema-driven generator's (it
// keeps arrays near minItems and adds undeclared keys rarely): edits 1..7 (rapid's mean 4.0,
// toolproof's 3.9), tags 0..4 (2.0 against 2.2), environmentVariables 0..1 entries (0.5
// against 0.4). With the schemas' own maxima (20, 8, unbounded) the hand-written values are 1.5
// to 10 times bigger and the floor correspondingly slower, which would flatter toolproof. Its
// strings are a little shorter in runes (6 against 8) but not in bytes: the json-bytes/value and
// json-nodes/value metrics of BenchmarkGenerate show the sizes side by side.

func hwJSONInt(i int) json.Number { return json.Number(strconv.Itoa(i)) }

var (
	hwNonEmpty = rapid.StringN(1, -1, -1) // minLength 1
	hwString   = rapid.String()
	hwBool     = rapid.Bool()

	hwReadOffset = rapid.IntMin(0)
	hwReadLimit  = rapid.IntRange(1, 2000)

	hwLanguage = rapid.SampledFrom([]string{"python", "javascript", "typescript", "bash", "go"})
	hwTimeout  = rapid.IntRange(1, 60)
	hwEnv      = rapid.MapOfN(rapid.String(), rapid.String().AsAny(), 0, 1)

	hwEdit = rapid.Custom(func(t *rapid.T) any {
		return map[string]any{
			"path":     hwNonEmpty.Draw(t, "path"),
			"old_text": hwString.Draw(t, "old_text"),
			"new_text": hwString.Draw(t, "new_text"),
		}
	})
	hwEdits = rapid.SliceOfN(hwEdit, 1, 7)
	hwTags  = rapid.SliceOfNDistinct(rapid.StringMatching(`^[a-z][a-z0-9-]{0,31}$`).AsAny(), 0, 4,
		func(v any) string { return v.(string) })
)

var hwGenerators = map[string]*rapid.Generator[any]{
	"read": rapid.Custom(func(t *rapid.T) any {
		m := map[string]any{"path": hwNonEmpty.Draw(t, "path")}
		if hwBool.Draw(t, "has_offset") {
			m["offset"] = hwJSONInt(hwReadOffset.Draw(t, "offset"))
		}
		if hwBool.Draw(t, "has_limit") {
			m["limit"] = hwJSONInt(hwReadLimit.Draw(t, "limit"))
		}
		return m
	}),
	"execute_code": rapid.Custom(func(t *rapid.T) any {
		m := map[string]any{
			"language": hwLanguage.Draw(t, "language"),
			"code":     hwNonEmpty.Draw(t, "code"),
		}
		if hwBool.Draw(t, "has_timeoutSeconds") {
			m["timeoutSeconds"] = hwJSONInt(hwTimeout.Draw(t, "timeoutSeconds"))
		}
		if hwBool.Draw(t, "has_environmentVariables") {
			m["environmentVariables"] = hwEnv.Draw(t, "environmentVariables")
		}
		return m
	}),
	"edit_files": rapid.Custom(func(t *rapid.T) any {
		m := map[string]any{"edits": hwEdits.Draw(t, "edits")}
		if hwBool.Draw(t, "has_tags") {
			m["tags"] = hwTags.Draw(t, "tags")
		}
		if hwBool.Draw(t, "has_dry_run") {
			m["dry_run"] = hwBool.Draw(t, "dry_run")
		}
		return m
	}),
}

// BenchmarkRapidIntRange is the cost of building a rapid generator for every draw
// (rapid.IntRange(0, 15).Draw(t, ...)) against drawing from one built once: two allocations
// (128 B) and roughly 2-3 times the time per draw. generate/*.go draws through cached
// generators for this reason. Not part of bench/generate.sh.
func BenchmarkRapidIntRange(b *testing.B) {
	var n int
	b.Run("fresh", func(b *testing.B) {
		benchDrawLoop(b, func(t *rapid.T) { n += rapid.IntRange(0, 15).Draw(t, "") })
	})
	cached := rapid.IntRange(0, 15)
	b.Run("cached", func(b *testing.B) {
		benchDrawLoop(b, func(t *rapid.T) { n += cached.Draw(t, "") })
	})
	benchSink = n
}
