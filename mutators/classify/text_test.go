package classify_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/mutators"
	"github.com/toolproof/toolproof/mutators/classify"
)

// What a log says is written escaped, as the reports write it: a tool name or argument text
// with an ESC or a newline cannot move the cursor or forge a line; a table's last column is not
// padded.
func TestWriteTextEscapesTheLog(t *testing.T) {
	forged := "read\x1b[2K\rPASS\nall"
	class := classify.ClassCount{Class: mutators.StringifiedType, Distortions: 1, Calls: 1,
		Variants: []classify.VariantCount{{Variant: "exact", Count: 1}},
		Examples: []classify.Example{{Tool: forged, Args: "{\"a\":\n\"\x1b]0;x\x07\"}", Line: 3, Variant: "exact"}}}
	s := classify.Summary{Calls: 1, Verdicts: map[mutators.Reading]int{mutators.Invalid: 1},
		Classes: []classify.ClassCount{class},
		Tools: []classify.ToolSummary{{Tool: forged, Calls: 1, Verdicts: map[mutators.Reading]int{mutators.Invalid: 1},
			Classes: []classify.ClassCount{class}}},
		UnknownTools: map[string]int{forged: 1}}
	var b bytes.Buffer
	if err := classify.WriteText(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\r\x07") {
		t.Errorf("control characters written raw:\n%q", out)
	}
	if !strings.Contains(out, `read\u001B[2K\rPASS\nall`) || !strings.Contains(out, `{"a":\n"\u001B]0;x\u0007"}`) {
		t.Errorf("the tool name or the arguments not escaped:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, " ") {
			t.Errorf("a line ends in spaces: %q", line)
		}
	}
}
