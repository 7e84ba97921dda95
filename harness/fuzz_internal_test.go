package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// The differential check blames a gate that accepts what the oracle rejects, and one that
// rejects what the oracle accepts, and never the reference.
func TestDifferential(t *testing.T) {
	read := tool.Tool{Name: "read",
		Parameters: json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer"}},` +
			`"additionalProperties":false}`)}
	acceptAll := validator.Func("accept-all", func(tool.Tool) (func([]byte) (any, error), error) {
		return func([]byte) (any, error) { return nil, nil }, nil
	})
	rejectDigits := validator.Func("reject-digits", func(tool.Tool) (func([]byte) (any, error), error) {
		return func(b []byte) (any, error) {
			if strings.ContainsAny(string(b), "0123456789") {
				return nil, &validator.Error{Tool: "read", Issues: []validator.Issue{{Path: "", Message: "digits"}}}
			}
			return nil, nil
		}, nil
	})
	for _, tc := range []struct {
		v    validator.Validator
		args string
		want string // "" for agreement, else a finding kind
	}{
		{oracle.Reference{}, `{"limit":"1"}`, ""},
		{oracle.Reference{}, `{"limit":1}`, ""},
		{oracle.Reference{}, `nonsense`, ""},
		{acceptAll, `{"limit":"1"}`, "missed"},
		{acceptAll, `{"limit":1}`, ""},
		{rejectDigits, `{"limit":1}`, "false_reject"},
	} {
		p, skip := prepareOne(read, tc.v, Options{}, nil)
		if skip != nil {
			t.Fatal(skip)
		}
		err := differential(p, newExecutor(Options{}, nil, nil), Options{})([]byte(tc.args))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s on %s: unexpected disagreement: %v", tc.v.Name(), tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s on %s: want %s, got %v", tc.v.Name(), tc.args, tc.want, err)
		}
	}
}

func TestImplementationDefinedInputsAreSkipped(t *testing.T) {
	for args, want := range map[string]bool{
		`{"a":1,"a":2}`:                 true,
		"\xef\xbb\xbf{}":                true,
		`{"n":9007199254740993}`:        true,
		`{"n":1e400}`:                   true,
		`{"s":"\ud800"}`:                true,
		strings.Repeat("[", 2000) + "]": true,
		`{"n":12.5}`:                    false,
		`{"a":1}`:                       false,
		`{"a":`:                         false,
	} {
		if got := implementationDefined([]byte(args)); got != want {
			t.Errorf("%.40s: implementationDefined = %v, want %v", args, got, want)
		}
	}
}

// The exported corpus is in the format go test reads: a header line and one []byte literal.
func TestWriteFuzzCorpus(t *testing.T) {
	dir := t.TempDir()
	inputs := [][]byte{[]byte(`{"a":1}`), []byte("not \xff json\n")}
	if err := WriteFuzzCorpus(dir, "FuzzX", inputs); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "testdata", "fuzz", "FuzzX"))
	if err != nil || len(entries) != 2 {
		t.Fatalf("%v %v", entries, err)
	}
	got := map[string]bool{}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, "testdata", "fuzz", "FuzzX", e.Name()))
		lines := strings.SplitN(string(data), "\n", 2)
		if lines[0] != "go test fuzz v1" {
			t.Fatalf("header %q", lines[0])
		}
		lit := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lines[1]), "[]byte("), ")")
		s, err := strconv.Unquote(lit)
		if err != nil {
			t.Fatalf("%q: %v", lines[1], err)
		}
		got[s] = true
	}
	for _, in := range inputs {
		if !got[string(in)] {
			t.Errorf("input %q not written", in)
		}
	}
}
