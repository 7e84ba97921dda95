package generate_test

// Benchmarks of the schema-driven generator against the floor the issue sets: a hand-written
// rapid generator of the same shape of values, the generator a careful person would write for
// each tool. bench/generate.sh runs these next to json-schema-faker and prints the table.
//
//	go test -run '^$' -bench 'BenchmarkGenerate' -benchmem ./generate/
//
// How values are drawn. A *rapid.T only exists inside rapid.Check, and Generator.Example makes a
// new T (and a new random stream) for every value, which would be measured too. So each
// benchmark runs rapid.Check, and every rapid test case draws up to drawsPerCase values in a
// row until b.N values have been drawn (rapid.Check is called again if its checks run out).
// rapid's random bit stream is not recorded outside shrinking, so a test case may draw any
// number of values at no extra cost; the per-test-case overhead is amortised over
// drawsPerCase values. Both generators are measured exactly this way, through the same
// *rapid.Generator.Draw of a rapid.Custom generator (Generator.Valid is one).

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/generate"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/tool"
	"github.com/toolproof/toolproof/validator"
)

// benchTools are the tools benchmarked, from ../corpus/tools.
var benchTools = []string{"read", "execute_code", "edit_files"}

// drawsPerCase is how many values one rapid test case draws.
const drawsPerCase = 100

// quietTB drops rapid's "[rapid] OK, passed N tests" lines, which a benchmark would print on
// every run (benchmark logs are always shown); failures still go to the benchmark.
type quietTB struct{ *testing.B }

func (quietTB) Logf(string, ...any) {}
func (quietTB) Log(...any)          {}

// drawLoop calls draw b.N times inside rapid test cases, timing only the draws' test cases.
func drawLoop(b *testing.B, draw func(t *rapid.T)) {
	b.Helper()
	b.ReportAllocs()
	remaining := b.N
	b.ResetTimer()
	for remaining > 0 {
		rapid.Check(quietTB{b}, func(t *rapid.T) {
			for i := 0; i < drawsPerCase && remaining > 0; i++ {
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

// sink keeps the drawn values alive so the compiler cannot drop the draws.
var sink any

type benchSubject struct {
	name        string
	gk          *validator.Gatekeeper
	gen         *generate.Generator
	handwritten *rapid.Generator[any]
}

func loadBenchSubject(b *testing.B, name string) benchSubject {
	b.Helper()
	set, err := tool.Load(filepath.Join("..", "corpus", "tools", name+".json"))
	if err != nil {
		b.Fatal(err)
	}
	tl, ok := set.Lookup(name)
	if !ok {
		b.Fatalf("tool %q not found (skipped: %v)", name, set.Skipped)
	}
	gk, err := validator.Compile(tl)
	if err != nil {
		b.Fatal(err)
	}
	g, err := generate.New(gk)
	if err != nil {
		b.Fatal(err)
	}
	hw, ok := handwritten[name]
	if !ok {
		b.Fatalf("no hand-written generator for %q", name)
	}
	return benchSubject{name: name, gk: gk, gen: g, handwritten: hw}
}

// checkStats fails the benchmark if the schema-driven generator built values the oracle
// rejected or could not find values, and reports how often it retried or gave up.
func checkStats(b *testing.B, g *generate.Generator, before generate.Stats) {
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
			valid := s.gen.Valid()
			b.Run("toolproof", func(b *testing.B) {
				sh := shapeOf(b, s, "toolproof", valid)
				before := s.gen.Stats()
				drawLoop(b, func(t *rapid.T) { sink = valid.Draw(t, "") })
				checkStats(b, s.gen, before)
				sh.report(b)
			})
			b.Run("handwritten", func(b *testing.B) {
				sh := shapeOf(b, s, "handwritten", s.handwritten)
				drawLoop(b, func(t *rapid.T) { sink = s.handwritten.Draw(t, "") })
				sh.report(b)
			})
		})
	}
}

// BenchmarkGenerateWithOracle shows the oracle's share: each generator's draw followed by
// gk.Valid(v) (the schema-driven generator already validates once inside Draw, so its
// "toolproof" line pays for the oracle twice), and oracle_only, gk.Valid on values drawn
// beforehand, which is the cost the schema-driven generator's Draw pays per value.
func BenchmarkGenerateWithOracle(b *testing.B) {
	for _, name := range benchTools {
		b.Run(name, func(b *testing.B) {
			s := loadBenchSubject(b, name)
			valid := s.gen.Valid()
			b.Run("toolproof", func(b *testing.B) {
				before := s.gen.Stats()
				drawLoop(b, func(t *rapid.T) {
					v := valid.Draw(t, "")
					if !s.gk.Valid(v) {
						t.Fatalf("invalid value %v", v)
					}
					sink = v
				})
				checkStats(b, s.gen, before)
			})
			b.Run("handwritten", func(b *testing.B) {
				drawLoop(b, func(t *rapid.T) {
					v := s.handwritten.Draw(t, "")
					if !s.gk.Valid(v) {
						t.Fatalf("invalid value %v", describe(v))
					}
					sink = v
				})
			})
			b.Run("oracle_only", func(b *testing.B) {
				pool := samples(b, valid, 1024)
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

type shape struct{ bytes, nodes float64 }

var shapes = map[string]shape{}

// shapeOf measures the mean encoded size and number of JSON nodes of gen's values (measured
// once per process, untimed), to show that the hand-written floor makes values of a shape
// comparable to the schema-driven generator's: it is no floor if it makes much smaller ones.
// It also confirms that every sampled value is valid.
func shapeOf(b *testing.B, s benchSubject, who string, gen *rapid.Generator[any]) shape {
	b.Helper()
	key := s.name + "/" + who
	sh, ok := shapes[key]
	if !ok {
		vs := samples(b, gen, 4000)
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
			nodes += countNodes(v)
		}
		sh = shape{float64(bytes) / float64(len(vs)), float64(nodes) / float64(len(vs))}
		shapes[key] = sh
	}
	return sh
}

// report adds the shape to the benchmark's line (after the timed loop: ResetTimer drops
// metrics reported before it).
func (sh shape) report(b *testing.B) {
	b.ReportMetric(sh.bytes, "json-bytes/value")
	b.ReportMetric(sh.nodes, "json-nodes/value")
}

// samples draws n values from gen in one untimed rapid test case.
func samples(b *testing.B, gen *rapid.Generator[any], n int) []any {
	b.Helper()
	var out []any
	rapid.Check(quietTB{b}, func(t *rapid.T) {
		for len(out) < n {
			out = append(out, gen.Draw(t, ""))
		}
	})
	if len(out) < n {
		b.Fatalf("drew %d of %d values", len(out), n)
	}
	return out
}

func countNodes(v any) int {
	n := 1
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			n += countNodes(e)
		}
	case []any:
		for _, e := range v {
			n += countNodes(e)
		}
	}
	return n
}

func describe(v any) string {
	j, err := jsonvalue.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(j)
}

// ---- the hand-written floor
//
// What a careful person writes by hand for each tool: optional properties present or absent
// by rapid.Bool, enums by rapid.SampledFrom, integers by rapid.IntRange/IntMin within the
// schema's bounds and written as json.Number, strings by rapid.StringN with the schema's
// minLength (rapid.StringMatching for a pattern), tags distinct. Generators are built once;
// values are the map[string]any / []any / string / bool / json.Number shapes the schema-driven
// generator returns.

func jsonInt(i int) json.Number { return json.Number(strconv.Itoa(i)) }

var (
	hwNonEmpty = rapid.StringN(1, -1, -1) // minLength 1
	hwString   = rapid.String()
	hwBool     = rapid.Bool()

	hwReadOffset = rapid.IntMin(0)
	hwReadLimit  = rapid.IntRange(1, 2000)

	hwLanguage = rapid.SampledFrom([]string{"python", "javascript", "typescript", "bash", "go"})
	hwTimeout  = rapid.IntRange(1, 60)
	hwEnv      = rapid.MapOf(rapid.String(), rapid.String().AsAny())

	hwEdit = rapid.Custom(func(t *rapid.T) any {
		return map[string]any{
			"path":     hwNonEmpty.Draw(t, "path"),
			"old_text": hwString.Draw(t, "old_text"),
			"new_text": hwString.Draw(t, "new_text"),
		}
	})
	hwEdits = rapid.SliceOfN(hwEdit, 1, 20)
	hwTags  = rapid.SliceOfNDistinct(rapid.StringMatching(`^[a-z][a-z0-9-]{0,31}$`).AsAny(), 0, 8,
		func(v any) string { return v.(string) })
)

var handwritten = map[string]*rapid.Generator[any]{
	"read": rapid.Custom(func(t *rapid.T) any {
		m := map[string]any{"path": hwNonEmpty.Draw(t, "path")}
		if hwBool.Draw(t, "has_offset") {
			m["offset"] = jsonInt(hwReadOffset.Draw(t, "offset"))
		}
		if hwBool.Draw(t, "has_limit") {
			m["limit"] = jsonInt(hwReadLimit.Draw(t, "limit"))
		}
		return m
	}),
	"execute_code": rapid.Custom(func(t *rapid.T) any {
		m := map[string]any{
			"language": hwLanguage.Draw(t, "language"),
			"code":     hwNonEmpty.Draw(t, "code"),
		}
		if hwBool.Draw(t, "has_timeoutSeconds") {
			m["timeoutSeconds"] = jsonInt(hwTimeout.Draw(t, "timeoutSeconds"))
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

// BenchmarkRapidIntRange is the cost, per draw, of building a rapid generator for each draw
// (rapid.IntRange(0, 15).Draw, as generate/*.go does) against drawing from one built once.
// Not part of bench/generate.sh; it backs a note in the benchmark report.
func BenchmarkRapidIntRange(b *testing.B) {
	var n int
	b.Run("fresh", func(b *testing.B) {
		drawLoop(b, func(t *rapid.T) { n += rapid.IntRange(0, 15).Draw(t, "") })
	})
	cached := rapid.IntRange(0, 15)
	b.Run("cached", func(b *testing.B) {
		drawLoop(b, func(t *rapid.T) { n += cached.Draw(t, "") })
	})
	sink = n
}
