package harness_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// render writes every format of a document's one report.
func render(t *testing.T, d report.Document) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range []string{"json", "text", "junit", "markdown"} {
		var b bytes.Buffer
		if err := d.Reports[0].Write(&b, f); err != nil {
			t.Fatal(err)
		}
		out[f] = b.String()
	}
	return out
}

// roundTrip is a document as merge reads it: written as JSON and read back.
func roundTrip(t *testing.T, r *report.Report) report.Document {
	t.Helper()
	var b bytes.Buffer
	if err := r.Write(&b, "json"); err != nil {
		t.Fatal(err)
	}
	var d report.Document
	if err := json.Unmarshal(b.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// A gate that accepts everything has findings in every class, among them argument text that is
// not UTF-8; its shards merged are the whole run in every format.
func TestMergeShardsOfAnAcceptAllGate(t *testing.T) {
	acceptAll := validator.Func("accept-all", func(tool.Tool) (func([]byte) (any, error), error) {
		return func([]byte) (any, error) { return nil, nil }, nil
	})
	tools := sample.Tools().Tools[:7]
	opts := harness.Options{Checks: 10, Seed: 4, Jobs: 2}
	whole, err := harness.Run(tools, acceptAll, opts)
	if err != nil {
		t.Fatal(err)
	}
	var docs []report.Document
	shrunk := 0
	for i := 0; i < 3; i++ {
		o := opts
		o.Shard, o.Shards = i, 3
		r, err := harness.Run(tools, acceptAll, o)
		if err != nil {
			t.Fatal(err)
		}
		shrunk += len(r.Shard.Shrinks)
		docs = append(docs, roundTrip(t, r))
	}
	notUTF8 := false
	for _, f := range whole.Findings {
		notUTF8 = notUTF8 || !utf8.Valid(f.Args)
	}
	if !notUTF8 {
		t.Error("no finding has argument text that is not UTF-8: this test no longer tests that merge keeps it")
	}
	n := 0
	for _, f := range whole.Findings {
		if f.Shrunk {
			n++
		}
	}
	if shrunk <= n {
		t.Errorf("the shards shrank %d findings, the whole run %d: this test no longer tests that merge undoes the "+
			"shards' own", shrunk, n)
	}
	m, err := report.Merge(docs, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, got := render(t, report.NewDocument(whole)), render(t, m)
	for f := range want {
		if want[f] != got[f] {
			t.Errorf("%s: the merged shards differ from the whole run (-want +got):\n%s", f, cmp.Diff(want[f], got[f]))
		}
	}

	// Refusals name the document.
	if _, err := report.Merge([]report.Document{docs[0], docs[0], docs[2]}, []string{"a", "b", "c"}); err == nil ||
		!strings.Contains(err.Error(), "b: shard 0/3, given twice (a is that shard too)") {
		t.Errorf("the same shard twice: %v", err)
	}
	if _, err := report.Merge([]report.Document{docs[0], roundTrip(t, whole)}, nil); err == nil ||
		!strings.Contains(err.Error(), "document 2: report 1 (validator accept-all) is not the report of a shard") {
		t.Errorf("a whole run: %v", err)
	}
}
