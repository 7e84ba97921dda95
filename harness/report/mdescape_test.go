package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
)

// hostileNames are names and texts built to make Markdown out of a report: HTML, links, images,
// code spans, emphasis, math, mentions, autolinks, a table cell break and a terminal escape.
var hostileNames = []string{
	`<script>alert(1)</script>`,
	`<img src=x onerror=alert(1)>`,
	`[x](javascript:alert(1))`,
	`</details><h1>PASS</h1>`,
	`![pixel](https://evil.example/p.png)`,
	"`code` **bold** _em_ ~~gone~~ $x^2$ :tada: @someone #1",
	`www.evil.example http://evil.example/a &lt; &amp;`,
	`a|b\`,
	"x\x1b[2Jy",
	`get_weather __init__ _lead trail_`,
}

// mdRead reads text the way CommonMark reads text that holds no markup: a backslash before
// ASCII punctuation stands for that character, and &amp;, &lt; and &gt; for theirs. Any other
// markup character left unescaped is reported.
func mdRead(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0:
			i++
			b.WriteByte(s[i])
		case c == '&':
			ent := ""
			for _, e := range []string{"&amp;", "&lt;", "&gt;"} {
				if strings.HasPrefix(s[i:], e) {
					ent = e
				}
			}
			if ent == "" {
				t.Errorf("%q: a raw & at %d", s, i)
			}
			b.WriteString(map[string]string{"&amp;": "&", "&lt;": "<", "&gt;": ">", "": "&"}[ent])
			i += len(ent) - 1
		case strings.IndexByte("\\`*~[]!#|$@<>", c) >= 0:
			t.Errorf("%q: a raw %q at %d", s, c, i)
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// mdText leaves no markup character unescaped in hostile text, and a reader of the Markdown gets
// the text back, its control characters escaped.
func TestMdTextReadsBackAsTheText(t *testing.T) {
	for _, s := range hostileNames {
		got := mdText(s)
		if back := mdRead(t, got); back != EscapeLine(s) {
			t.Errorf("mdText(%q) = %q, read back as %q", s, got, back)
		}
		for _, word := range []string{"://", "www.", ":tada", ":alert"} {
			if unescaped(got, word) {
				t.Errorf("mdText(%q) = %q: %q is left to autolink or render", s, got, word)
			}
		}
		if strings.Contains(s, "_em_") && strings.Contains(got, " _em_") {
			t.Errorf("mdText(%q) = %q: an underscore that can emphasise is left raw", s, got)
		}
	}
	if got := mdText("get_weather"); got != "get_weather" {
		t.Errorf("an underscore inside a word is escaped: %q", got)
	}
}

// unescaped reports whether word is in s with no backslash before it.
func unescaped(s, word string) bool {
	for i := strings.Index(s, word); i >= 0; {
		if i == 0 || s[i-1] != '\\' {
			return true
		}
		next := strings.Index(s[i+1:], word)
		if next < 0 {
			return false
		}
		i += 1 + next
	}
	return false
}

// codeSpan matches the code spans mdCode writes (inside one, nothing is markup).
var codeSpan = regexp.MustCompile("```` .*? ````|``` .*? ```|`` .*? ``|` [^`]*? `")

// hostileReport is a report whose every text from outside is hostile: the validator, the tool
// names, a class, a path, a skipped tool and its reason, a stale case, a note, the reason it
// was interrupted and the baseline's file.
func hostileReport() *Report {
	r := &Report{Validator: hostileNames[3], Profile: "strict", ClassOrder: testClassOrder, Tools: 2,
		Classes: map[string]*ClassStats{"valid": {Cases: 2, Failed: 1, ByKind: map[Kind]int{FalseReject: 1}},
			hostileNames[2]: {Cases: 1, Failed: 1, ByKind: map[Kind]int{Missed: 1}, Unclear: 1,
				Samples: []string{hostileNames[5]}}},
		Checked: map[string][]string{"valid": {hostileNames[0]}, hostileNames[2]: {hostileNames[1]}},
		Findings: []Finding{
			{Case: corpus.Case{Tool: hostileNames[0], Class: corpus.Valid, Path: "/" + hostileNames[4],
				Args: []byte("{\"`\":\"``\"}"),
				ID:   "00000000000000000001"}, Kind: FalseReject, Blocking: true, Count: 1},
			{Case: corpus.Case{Tool: hostileNames[1], Class: corpus.Class(hostileNames[2]), Path: "/" + hostileNames[7],
				Args: []byte(`{"a":"<b>"}`), ID: "00000000000000000002"}, Kind: Missed, Blocking: true, Count: 1},
		},
		Skipped:     []Skipped{{Tool: hostileNames[6], Source: hostileNames[9], Reason: hostileNames[8]}},
		Stale:       []string{hostileNames[4]},
		Notes:       []string{hostileNames[5]},
		Interrupted: hostileNames[0],
		Baseline:    &BaselineResult{File: "base`line.json"},
	}
	r.Finish()
	return r
}

// No text from outside makes markup in the Markdown report or comparison (the Action appends
// them to the job summary): the reports are pinned, and hold no raw tag but the comparison's
// own <details> and <summary>.
func TestGoldenHostileMarkdown(t *testing.T) {
	hostile := hostileReport()
	cmpr := &Comparison{Reports: []*Report{goldenPassing(), hostile}}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"hostile.md":            func(b *bytes.Buffer) error { return hostile.Write(b, "markdown") },
		"hostile-comparison.md": func(b *bytes.Buffer) error { return cmpr.Write(b, "markdown") },
	} {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := write(&got); err != nil {
				t.Fatal(err)
			}
			out := got.String()
			own := strings.NewReplacer("<details><summary>", "", "</summary>", "", "</details>", "").Replace(out)
			own = codeSpan.ReplaceAllString(own, "")
			for _, raw := range []string{"<", "](", "![", "[", "\x1b"} {
				if unescaped(own, raw) {
					t.Errorf("%s holds a raw %q:\n%s", name, raw, out)
				}
			}
			checkGolden(t, name, got.Bytes())
		})
	}
}
