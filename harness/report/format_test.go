package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Every format Formats names renders a report and a comparison; an unknown one is refused with
// the list of formats, by Write and FormatNamed alike.
func TestFormats(t *testing.T) {
	if got := strings.Join(Formats(), ","); got != "text,json,junit,markdown,html,sarif,badge" {
		t.Errorf("Formats() = %s", got)
	}
	cmp := &Comparison{Reports: []*Report{goldenPassing(), goldenReport()}}
	for _, name := range append(Formats(), "md", "") {
		var a, b bytes.Buffer
		if err := goldenReport().Write(&a, name); err != nil || a.Len() == 0 {
			t.Errorf("report in %q: %v, %d bytes", name, err, a.Len())
		}
		if err := cmp.Write(&b, name); err != nil || b.Len() == 0 {
			t.Errorf("comparison in %q: %v, %d bytes", name, err, b.Len())
		}
	}
	if got, err := FormatNamed("md"); got != "markdown" || err != nil {
		t.Errorf(`FormatNamed("md") = %q, %v`, got, err)
	}
	const want = `unknown format "html5" (want text, json, junit, markdown, html, sarif or badge)`
	for _, err := range []error{goldenReport().Write(&bytes.Buffer{}, "html5"), cmp.Write(&bytes.Buffer{}, "html5")} {
		if err == nil || err.Error() != want {
			t.Errorf("an unknown format: %v, want %s", err, want)
		}
	}
	if _, err := FormatNamed(""); err == nil {
		t.Error(`FormatNamed("") is no error`)
	}
}

// The SARIF run says its columns count Unicode code points (columnKind), as Source.Column does,
// rather than leaving a consumer to assume a unit.
func TestSARIFColumnKind(t *testing.T) {
	r := &Report{Validator: "v", Findings: []Finding{}}
	var b strings.Builder
	if err := r.WriteSARIF(&b, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			ColumnKind string `json:"columnKind"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(b.String()), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || log.Runs[0].ColumnKind != "unicodeCodePoints" {
		t.Errorf("runs %+v, want one with columnKind unicodeCodePoints", log.Runs)
	}
}
