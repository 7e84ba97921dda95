package report

import (
	"bytes"
	"strings"
	"testing"
)

// A comparison marks each run that stopped early, in every format whose run report marks it
// (text, Markdown, JSON), and says nothing of it when every run finished.
func TestComparisonMarksInterrupted(t *testing.T) {
	stopped := goldenReport()
	stopped.Interrupted = "stopped after --max-time 2s: 3 of 5 tools checked"
	stopped.Recount()
	want := map[string]string{
		"text":     "INTERRUPTED  validator " + stopped.Validator + ": " + stopped.Interrupted + "\n",
		"markdown": "**Interrupted**: validator " + stopped.Validator + ": " + stopped.Interrupted + "\n",
		"json":     `"interrupted": "` + stopped.Interrupted + `"`,
	}
	for format, line := range want {
		var run, both, finished bytes.Buffer
		if err := stopped.Write(&run, format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.ToLower(run.String()), "interrupted") {
			t.Fatalf("%s: the run's own report does not mark it interrupted:\n%s", format, run.String())
		}
		if err := (&Comparison{Reports: []*Report{goldenPassing(), stopped}}).Write(&both, format); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(both.String(), line) {
			t.Errorf("%s: the comparison does not hold %q:\n%s", format, line, both.String())
		}
		if err := (&Comparison{Reports: []*Report{goldenPassing(), goldenReport()}}).Write(&finished,
			format); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(finished.String()), "interrupted") {
			t.Errorf("%s: a comparison of finished runs speaks of an interruption:\n%s", format, finished.String())
		}
	}
}
