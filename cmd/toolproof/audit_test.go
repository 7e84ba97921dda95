package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/audit"
	"github.com/toolproof/toolproof/validator/tool"
)

// audit names a pattern that not every regex dialect reads alike, with its place, in text and
// in JSON.
func TestAuditWarnsOfDialectPatterns(t *testing.T) {
	dir := t.TempDir()
	f := writeFile(t, dir, "ci.json",
		`{"name":"ci","description":"x","parameters":{"type":"object","properties":{"name":{"type":"string",`+
			`"pattern":"(?i)^abc$"}}}}`)
	r := cli(t, "audit", "--tools", f)
	if r.code != 1 || !strings.Contains(r.stdout, `pattern "(?i)^abc$" at /properties/name/pattern`) {
		t.Errorf("audit text: exit %d, no warning naming the pattern and its place:\n%s", r.code, r.stdout)
	}
	r = cli(t, "audit", "--tools", f, "--format", "json")
	var doc struct {
		Tools []struct {
			Patterns []string `json:"pattern_warnings"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || len(doc.Tools) != 1 ||
		len(doc.Tools[0].Patterns) != 1 {
		t.Errorf("audit json: %v, %+v", err, doc)
	}
}

// run and gen warn of the same pattern on stderr, naming the tool, the file and the place, and
// go on with the tool; a lookaround, which RE2 (Go validators) cannot compile, is named once.
func TestRunAndGenWarnOfDialectPatterns(t *testing.T) {
	dir := t.TempDir()
	ci := writeFile(t, dir, "ci.json",
		`{"name":"ci","description":"x","parameters":{"type":"object","properties":{"name":{"type":"string",`+
			`"pattern":"(?i)^abc$"}}}}`)
	want := `tool "ci" (` + ci + `): pattern "(?i)^abc$" at /properties/name/pattern: inline flags`
	for _, args := range [][]string{
		{"run", "--tools", ci, "--checks", "3", "--seed", "1"},
		{"gen", "--tools", ci, "--n", "2"},
	} {
		r := cli(t, args...)
		if r.code != 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, stderr without %q:\n%s", args[0], r.code, want, r.stderr)
		}
	}
	la := writeFile(t, dir, "la.json",
		`{"name":"la","description":"x","parameters":{"type":"object","properties":{"name":{"type":"string",`+
			`"pattern":"^(?=a)ab$"}}}}`)
	r := cli(t, "gen", "--tools", la, "--n", "2")
	if n := strings.Count(r.stderr, `pattern "^(?=a)ab$"`); n != 1 {
		t.Errorf("a lookaround pattern named %d times, want once:\n%s", n, r.stderr)
	}
}

func TestAudit(t *testing.T) {
	f := writeFile(t, t.TempDir(), "open.json", `{"name":"open_tool","parameters":{"type":"object",
		"properties":{"id":{"type":["integer","string"]},"note":{"type":"string"},"mode":{"type":"string","enum":["a","b"]}},
		"required":["id"]}}`)
	text := must(t, 1, "audit", "--tools", f).stdout
	if !strings.HasPrefix(text, "open_tool\n") {
		t.Errorf("the audit does not start with the tool name:\n%s", text)
	}
	for _, tc := range []struct{ class, why string }{
		{"hallucinated_key", "the root is an open object"},
		{"stringified_type", "/id is typed [integer, string]"},
	} {
		if !regexp.MustCompile(`(?m)^  ` + tc.class + `\s+PASSES at`).MatchString(text) {
			t.Errorf("the audit does not say %s passes:\n%s", tc.class, text)
		}
		if !strings.Contains(text, "passes  "+tc.why) {
			t.Errorf("the audit does not say why %s passes (%q):\n%s", tc.class, tc.why, text)
		}
	}
	if !regexp.MustCompile(`(?m)^      passes  the root is an open object.*\n              witness at /\w+: \{.*\}\n ` +
		`             accepted$`).MatchString(text) {
		t.Errorf("the audit does not show the witness of a pass:\n%s", text)
	}
	if !regexp.MustCompile(`(?m)^  missing_required\s+caught at all`).MatchString(text) {
		t.Errorf("the audit does not say missing_required is caught:\n%s", text)
	}
	// A free string has no range for a model to leave: another string there is just a valid value.
	// The enum at /mode and the integer at /id are the places out_of_range_enum is about, and are caught.
	if strings.Contains(text, "free string") ||
		!regexp.MustCompile(`(?m)^  out_of_range_enum\s+caught at all 2 places`).MatchString(text) {
		t.Errorf("the audit reports the free string /note as an out_of_range_enum, or not the enum at /mode as "+
			"caught:\n%s", text)
	}
	closed := must(t, 1, "audit", "--tools", f, "--close").stdout
	if !regexp.MustCompile(`(?m)^  hallucinated_key\s+caught at all`).MatchString(closed) {
		t.Errorf("--close: hallucinated_key should be caught everywhere:\n%s", closed)
	}

	var js struct {
		Tools []struct {
			Tool   string `json:"tool"`
			Places []struct {
				Class   string `json:"class"`
				Path    string `json:"path"`
				Verdict string `json:"verdict"`
				Why     string `json:"why"`
				Witness *struct {
					Args string `json:"args"`
				} `json:"witness"`
			} `json:"places"`
		} `json:"tools"`
		Skipped []tool.Skipped `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(must(t, 1, "audit", "--tools", f, "--format", "json").stdout), &js); err != nil {
		t.Fatalf("audit --format json: %v", err)
	}
	if len(js.Tools) != 1 || js.Tools[0].Tool != "open_tool" {
		t.Fatalf("audit json: %+v", js)
	}
	passes := map[string]string{}
	for _, p := range js.Tools[0].Places {
		if p.Verdict == "passes" {
			passes[p.Class] = p.Path
		}
		if p.Verdict != "not_determined" && (p.Witness == nil || p.Witness.Args == "") {
			t.Errorf("audit json: %s at %q is %s without a witness", p.Class, p.Path, p.Verdict)
		}
	}
	// wrong_type passes at /id too: a number in place of a string is allowed by [integer, string].
	if d := cmp.Diff(map[string]string{"hallucinated_key": "", "stringified_type": "/id", "wrong_type": "/id"},
		passes); d != "" {
		t.Errorf("audit json: classes that pass, and where (-want +got):\n%s", d)
	}
}

// TestAuditExitStatus: audit exits as run does: 0 when no schema lets a distortion through, 1 when
// one does, 2 when no tool could be audited.
func TestAuditExitStatus(t *testing.T) {
	dir := t.TempDir()
	strict := writeFile(t, dir, "strict.json", `{"name":"s","parameters":{"type":"object","additionalProperties":false,
		"properties":{"mode":{"type":"string","enum":["a","b"]},"note":{"type":"string"}},"required":["mode","note"]}}`)
	must(t, 0, "audit", "--tools", strict)
	open := writeFile(t, dir, "open.json",
		`{"name":"o","parameters":{"type":"object","properties":{"n":{"type":"integer"}}}}`)
	must(t, 1, "audit", "--tools", open)
	none := writeFile(t, dir, "none.json",
		`{"name":"u","parameters":{"type":"object","properties":{"n":{"type":"string","pattern":"(?<=a"}}}}`)
	must(t, 2, "audit", "--tools", none)
}

// An unsatisfiable tool is said to be one, with its reason, and listed among the tools that
// cannot be used; --all shows what the oracle rejected for a caught place.
func TestAuditUnsatisfiable(t *testing.T) {
	f := writeFile(t, t.TempDir(), "tools.json",
		`[{"name":"never","parameters":{"type":"object","properties":{"a":{"type":"string","minLength":5,"maxLength":2}},"required":["a"]}},
		{"name":"fine","parameters":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false}}]`)
	text := must(t, 0, "audit", "--tools", f, "--all").stdout
	for _, want := range []string{"never\n  UNSATISFIABLE: /a: ", "cannot be used (1):\n  never (",
		"rejected: /a: must be integer"} {
		if !strings.Contains(text, want) {
			t.Errorf("audit --all does not say %q:\n%s", want, text)
		}
	}
	var js struct {
		Tools []struct {
			Tool          string `json:"tool"`
			Unsatisfiable string `json:"unsatisfiable"`
		} `json:"tools"`
		Skipped []tool.Skipped `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(must(t, 0, "audit", "--tools", f, "--format", "json").stdout), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Tools) != 2 || js.Tools[0].Unsatisfiable == "" || js.Tools[1].Unsatisfiable != "" {
		t.Errorf("audit json tools: %+v", js.Tools)
	}
	if len(js.Skipped) != 1 || js.Skipped[0].Tool != "never" ||
		!strings.Contains(js.Skipped[0].Reason, "unsatisfiable") {
		t.Errorf("audit json skipped: %+v", js.Skipped)
	}
}

func TestAuditEmbeddedCorpus(t *testing.T) {
	var js struct {
		Tools   []json.RawMessage `json:"tools"`
		Skipped []tool.Skipped    `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(must(t, 1, "audit", "--format", "json").stdout), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Tools) != corpusSize || len(js.Skipped) != 0 {
		t.Errorf("audit of the embedded corpus: %d tools, %d skipped; want %d, 0", len(js.Tools),
			len(js.Skipped), corpusSize)
	}
}

// The text of an audit escapes what the tool file says, as the reports do: a tool name, a reason
// or a witness with an ESC or a newline cannot rewrite the terminal or forge a line.
func TestAuditTextEscapes(t *testing.T) {
	forged := "read\x1b[2K\rPASS\nall"
	ta := toolAudit{Report: audit.Report{Tool: forged, Drawn: 1, Places: []audit.Place{{Class: mutators.StringifiedType,
		Path: "/a\nb", Status: audit.Passes, Why: "a key \x1b[31m",
		Witness: &audit.Witness{Args: "{\"a\nb\": \"\x07\"}", Path: "/a\nb"}}}}}
	var b strings.Builder
	writeToolAudit(&b, ta, true)
	out := b.String()
	if strings.ContainsAny(out, "\x1b\r\x07") {
		t.Errorf("control characters written raw:\n%q", out)
	}
	for _, want := range []string{`read\u001B[2K\rPASS\nall` + "\n", `passes  a key \u001B[31m`,
		`witness at /a\nb: {"a\nb": "\u0007"}`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// A tool whose required pattern the generator cannot construct a string for is skipped by audit
// with that reason, never called unsatisfiable.
func TestAuditPatternBeyondTheGenerator(t *testing.T) {
	f := writeFile(t, t.TempDir(), "tools.json", `[{"name":"code","parameters":{"type":"object",`+
		`"properties":{"code":{"type":"string","pattern":"^x{1001}$"}},"required":["code"]}},`+
		`{"name":"fine","parameters":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}}]`)
	text := must(t, 1, "audit", "--tools", f, "--all").stdout
	if !strings.Contains(text, "code\n  SKIPPED: ") || !strings.Contains(text, "cannot construct a string") ||
		strings.Contains(text, "nsatisfiable") {
		t.Errorf("audit does not skip the tool for the pattern beyond the generator:\n%s", text)
	}
}
