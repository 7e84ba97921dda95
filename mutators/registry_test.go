package mutators

import (
	"os"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/internal/gentest"
	"github.com/toolproof/toolproof/validator/tool"
)

// TestDefaultRegistry pins the order of generation (the classic four first) and the order in
// which Recognise tries the classes' undoings and explanations.
func TestDefaultRegistry(t *testing.T) {
	reg := Default()
	want := []corpus.Class{StringifiedType, FlattenedArray, HallucinatedKey, OutOfRangeEnum, MissingRequired, NullValue,
		WrongType, JSONInString, WrappedScalar, WrapperNesting, RootNotObject, MalformedJSON,
		ImplementationDef, MisnamedKey}
	if got := reg.Classes(); !slices.Equal(got, want) {
		t.Errorf("generation order %v, want %v", got, want)
	}
	for i, m := range All() {
		if i >= len(want) || m.Class() != want[i] {
			t.Errorf("All()[%d] draws %s, want %s", i, m.Class(), want[i])
		}
	}
	rs := reg.recognisers()
	var undoers, explainers []corpus.Class
	for _, u := range rs.undoers {
		undoers = append(undoers, u.(Mutator).Class())
	}
	for _, e := range rs.explainers {
		explainers = append(explainers, e.(Mutator).Class())
	}
	wantUndo := []corpus.Class{WrapperNesting, JSONInString, StringifiedType, WrappedScalar, WrongType, FlattenedArray,
		HallucinatedKey, MisnamedKey}
	wantExplain := []corpus.Class{MissingRequired, NullValue, OutOfRangeEnum, WrongType, HallucinatedKey}
	if !slices.Equal(undoers, wantUndo) {
		t.Errorf("undo order %v, want %v", undoers, wantUndo)
	}
	if !slices.Equal(explainers, wantExplain) {
		t.Errorf("explain order %v, want %v", explainers, wantExplain)
	}
	for _, d := range reg.Definitions() {
		if d.Doc == "" {
			t.Errorf("%s has no docs line", d.Name)
		}
		if d.Name != ImplementationDef && (d.Audit.Analyse == nil || d.Audit.Probe == nil) {
			t.Errorf("%s has no audit hints", d.Name)
		}
	}
}

// TestNewRegistryRefuses checks that a registry with a class twice, a mutator of another class
// or two classes at one rank is refused, saying which.
func TestNewRegistryRefuses(t *testing.T) {
	null, wrong := nullClass(), wrongTypeClass()
	misdrawn := null
	misdrawn.Mutator = wrongType{}
	shared := wrong
	shared.recognise.explainRank = null.recognise.explainRank
	for _, tc := range []struct {
		name string
		defs []Definition
		want string
	}{
		{"twice", []Definition{null, null}, `"null_value" is defined twice`},
		{"misdrawn", []Definition{misdrawn}, `"null_value": its mutator does not draw it`},
		{"shared rank", []Definition{null, shared}, `share explain rank 2`},
		{"no name", []Definition{{}}, "has no name"},
	} {
		_, err := NewRegistry(tc.defs...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	_, err := Default().Select("stringified_type,nonesuch")
	if err == nil || !strings.Contains(err.Error(), `"nonesuch"`) {
		t.Errorf("Select of an unknown class: %v", err)
	}
}

// TestTaxonomyTableIsTheRegistry checks that docs/taxonomy.md's class table lists the
// registry's classes, in its order, each with its Doc line.
func TestTaxonomyTableIsTheRegistry(t *testing.T) {
	b, err := os.ReadFile("../docs/taxonomy.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []docRow
	for _, line := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(line, "| `")
		if !ok {
			continue
		}
		name, doc, ok := strings.Cut(rest, "` | ")
		if !ok {
			continue
		}
		rows = append(rows, docRow{name, strings.TrimSuffix(doc, " |")})
	}
	var want []docRow
	for _, d := range Default().Definitions() {
		want = append(want, docRow{string(d.Name), d.Doc})
	}
	if !slices.Equal(rows, want) {
		t.Errorf("docs/taxonomy.md's class table is not the registry's; write these rows there:\n%s", tableRows(want))
	}
}

// docRow is one row of docs/taxonomy.md's class table.
type docRow struct{ class, doc string }

// tableRows writes rows as docs/taxonomy.md's class table writes them.
func tableRows(rows []docRow) string {
	var sb strings.Builder
	for _, r := range rows {
		sb.WriteString("| `" + r.class + "` | " + r.doc + " |\n")
	}
	return sb.String()
}

// boxed is the wrapped_scalar distortion under another class name: a class that is in no
// list but the registry it is put in.
const boxed corpus.Class = "boxed_scalar"

type renamedMutator struct{ Mutator }

func (renamedMutator) Class() corpus.Class { return boxed }

func (r renamedMutator) Mutate(t *rapid.T, tg *Target) (corpus.Case, bool) {
	m, ok := r.Mutator.Mutate(t, tg)
	m.Class = boxed
	return m, ok
}

type renamedUndoer struct{ undoer }

func (r renamedUndoer) undo(rd *undoing, s *site) []undo {
	us := r.undoer.undo(rd, s)
	for i := range us {
		us[i].class = boxed
	}
	return us
}

// boxedRegistry is the default registry with wrapped_scalar replaced, at the end, by boxed.
func boxedRegistry(t *testing.T) *Registry {
	var defs []Definition
	for _, d := range Default().Definitions() {
		if d.Name != WrappedScalar {
			defs = append(defs, d)
		}
	}
	w := wrappedScalarClass()
	w.Name, w.Mutator = boxed, renamedMutator{w.Mutator}
	w.recognise.undo = renamedUndoer{w.recognise.undo}
	reg, err := NewRegistry(append(defs, w)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestARegistryDrivesGenerationAndRecognition checks that a class put in a registry is drawn
// by its Select and read back by Recognise with its recognisers, and that the default
// registry knows nothing of it.
func TestARegistryDrivesGenerationAndRecognition(t *testing.T) {
	reg := boxedRegistry(t)
	if cs := reg.Classes(); cs[len(cs)-1] != boxed || slices.Contains(cs, WrappedScalar) {
		t.Fatalf("classes %v, want boxed_scalar last and no wrapped_scalar", cs)
	}
	if _, err := Select(string(boxed)); err == nil {
		t.Errorf("the default registry selects %s", boxed)
	}
	ms, err := reg.Select(string(boxed))
	if err != nil {
		t.Fatal(err)
	}
	set, err := tool.Load("../validator/tool/sample/tools")
	if err != nil {
		t.Fatal(err)
	}
	rs := reg.recognisers()
	made := 0
	for _, tl := range set.Tools {
		gk, g := gentest.New(t, tl)
		ctx := NewContext(gk, nil)
		draw := rapid.Custom(func(rt *rapid.T) int {
			v, ok := g.Draw(rt)
			if !ok {
				return 0
			}
			m, ok := ms[0].Mutate(rt, ctx.Target(v))
			if !ok {
				return 0
			}
			made++
			if m.Class != boxed {
				t.Errorf("drew class %s, want %s", m.Class, boxed)
			}
			if !ctx.recognise(m.Args, rs).Names(m) {
				t.Errorf("the registry's recognisers do not read back %q as %s", m.Args, boxed)
			}
			if ctx.Recognise(m.Args).Names(m) {
				t.Errorf("the default recognisers read %q as %s", m.Args, boxed)
			}
			return 0
		})
		for i := 0; i < 3; i++ {
			draw.Example(i)
		}
	}
	if made == 0 {
		t.Fatal("no boxed_scalar case drawn from the sample tools")
	}
}
