package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/corpus"
)

// A tool name, a message or a note with ESC, CR or LF cannot forge a line of the text or
// Markdown report: every control character is written escaped.
func TestControlCharactersAreEscaped(t *testing.T) {
	forged := "t\x1b[2K\r\nPASS  validator forged\u202e"
	r := &Report{Validator: "v\x1b]0;x\x07", Classes: map[string]*ClassStats{},
		Findings: []Finding{{Case: corpus.Case{Tool: forged, Class: corpus.Valid, Args: []byte(`{"a":"\u001b"}`)},
			Kind: FalseReject, Blocking: true, Detail: "line one\nline\rtwo\x1b"}},
		Skipped: []Skipped{{Tool: forged, Source: "f.json", Reason: "bad\x1b[31m"}},
		Notes:   []string{forged}}
	r.Finish()
	for _, format := range []string{"text", "markdown", "text comparison", "markdown comparison"} {
		var b bytes.Buffer
		var err error
		if f, ok := strings.CutSuffix(format, " comparison"); ok {
			err = (&Comparison{Reports: []*Report{goldenPassing(), r}}).Write(&b, f)
		} else {
			err = r.Write(&b, format)
		}
		if err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.ContainsAny(out, "\x1b\r\x07\u202e") {
			t.Errorf("%s: a control character is written raw:\n%q", format, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "PASS") {
				t.Errorf("%s: a forged line: %q", format, line)
			}
		}
	}
}

// TestJSONEscapesHiddenCharacters: the JSON toolproof writes holds no raw DEL, C1 or
// bidirectional control, and decodes to the very text it was given.
func TestJSONEscapesHiddenCharacters(t *testing.T) {
	text := "a\u202eb\u0085c\x7fd\u2066e é <&> \U0001F600"
	var buf bytes.Buffer
	if err := NewJSONEncoder(&buf).Encode(map[string]string{text: text}); err != nil {
		t.Fatal(err)
	}
	if i := strings.IndexFunc(buf.String(), hidden); i >= 0 {
		t.Errorf("a raw hidden character at byte %d: %q", i, buf.String())
	}
	if !strings.Contains(buf.String(), `<&>`) {
		t.Errorf("HTML characters escaped: %s", buf.String())
	}
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back[text] != text {
		t.Errorf("decodes to %q (%v), want %q", back, err, text)
	}
}
