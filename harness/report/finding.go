package report

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/toolproof/toolproof/corpus"
)

// Finding is one wrong verdict: the case that shows it (its tool, class, expectation, place,
// reason, arguments and id) and what the gate did with it.
type Finding struct {
	corpus.Case
	Kind     Kind
	Got      string  // accepted, rejected, unclear, crash, timeout, protocol_error
	Detail   string  // a -want +got diff, the leaked message, the crash
	Issues   []Issue // what the gate said
	Count    int     // cases with this tool, class and kind in the final pass (at any place)
	Blocking bool    // fails the run (imprecise_location only with RequireLocation)
	Shrunk   bool    // minimised by rapid (else the first case seen)
	// Place is the part of the tool's schema the finding is about, as a JSON Pointer into its
	// parameters: the keyword the oracle finds the case breaks, else the subschema of its path;
	// for a valid case, the subschema of the gate's first issue; "" when none. A report keeps one
	// finding per tool, class, kind and place (Group).
	Place string
	// Known is set by a baseline (package baseline) on a finding it lists and whose minimal case
	// still reproduces: it is reported, but does not fail the run.
	Known bool
	// Location is where in its tool file the part of the tool's schema the finding is about is
	// written (Locate sets it): the keyword the oracle finds the case breaks, else the subschema
	// of the case's path. The zero Source when unknown: the finding is at its tool's definition.
	Location Source
}

// ShrinkNote is "" for a finding whose case rapid minimised, else why its case is the one first
// drawn; every format marks such a finding with it.
func (f Finding) ShrinkNote() string {
	switch {
	case f.Shrunk:
		return ""
	case f.Kind == Timeout || f.Kind == Crash:
		return "not shrunk: the case as first drawn (a hang or a crash is not retried)"
	case !f.Blocking:
		return "not shrunk: the case as first drawn (a finding that does not block is not shrunk)"
	}
	return "not shrunk: the case as first drawn (a run shrinks the first tool of each class and kind)"
}

// Fails reports whether the finding fails the run: blocking, and not known to a baseline.
func (f Finding) Fails() bool { return f.Blocking && !f.Known }

// findingJSON is the JSON form of a Finding: the case's fields and the verdict's, flat.
type findingJSON struct {
	Tool       string         `json:"tool"`
	Class      corpus.Class   `json:"class"`
	Variant    string         `json:"variant,omitempty"`
	Kind       Kind           `json:"kind"`
	Expect     corpus.Expect  `json:"expect"`
	Got        string         `json:"got"`
	Path       string         `json:"path"`
	Scope      string         `json:"scope,omitempty"`
	Also       []corpus.Place `json:"also,omitempty"`
	Keyword    string         `json:"keyword,omitempty"`
	Location   *Source        `json:"location,omitempty"` // where the schema place is written in the tool file
	Reason     string         `json:"reason,omitempty"`
	Canary     string         `json:"canary,omitempty"`
	Args       string         `json:"args"`
	ArgsBase64 string         `json:"args_base64,omitempty"` // the exact text, when it is not UTF-8
	Original   string         `json:"original,omitempty"`    // the valid arguments the distortion started from
	ID         string         `json:"id"`
	SchemaHash string         `json:"schema_hash,omitempty"`
	Detail     string         `json:"detail,omitempty"`
	Issues     []Issue        `json:"issues,omitempty"`
	Count      int            `json:"count"`
	Blocking   bool           `json:"blocking"`
	Shrunk     bool           `json:"shrunk"`
	Place      string         `json:"place,omitempty"`
	Known      bool           `json:"known,omitempty"`
}

// MarshalJSON writes the finding flat: its case's fields beside the verdict's.
func (f Finding) MarshalJSON() ([]byte, error) {
	j := findingJSON{Tool: f.Tool, Class: f.Class, Variant: f.Variant, Kind: f.Kind, Expect: f.Expect, Got: f.Got,
		Path: f.Path, Scope: f.Scope, Also: f.Also, Keyword: f.Keyword, Reason: f.Reason,
		Canary: f.Canary, Args: string(f.Args),
		Original: string(f.Original), ID: f.ID, SchemaHash: f.SchemaHash, Detail: f.Detail,
		Issues: f.Issues, Count: f.Count, Blocking: f.Blocking, Shrunk: f.Shrunk, Place: f.Place, Known: f.Known}
	if f.Location != (Source{}) {
		loc := f.Location
		j.Location = &loc
	}
	if !utf8.Valid(f.Args) {
		j.ArgsBase64 = base64.StdEncoding.EncodeToString(f.Args)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Finding) UnmarshalJSON(b []byte) error {
	var j findingJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	args := []byte(j.Args)
	if j.ArgsBase64 != "" {
		raw, err := base64.StdEncoding.DecodeString(j.ArgsBase64)
		if err != nil {
			return fmt.Errorf("finding %s: args_base64: %v", j.ID, err)
		}
		args = raw
	}
	var original []byte
	if j.Original != "" {
		original = []byte(j.Original)
	}
	*f = Finding{Case: corpus.Case{ID: j.ID, Tool: j.Tool, SchemaHash: j.SchemaHash, Args: args, Original: original,
		Expect: j.Expect, Class: j.Class, Variant: j.Variant, Path: j.Path, Scope: j.Scope,
		Also: j.Also, Keyword: j.Keyword,
		Reason: j.Reason, Canary: j.Canary},
		Kind: j.Kind, Got: j.Got, Detail: j.Detail, Issues: j.Issues, Count: j.Count,
		Blocking: j.Blocking, Shrunk: j.Shrunk,
		Place: j.Place, Known: j.Known}
	if j.Location != nil {
		f.Location = *j.Location
	}
	return nil
}

// Group is the finding's tool, class, kind and place: a report keeps one finding per group, so
// two faults of one tool, class and kind at two places of its schema are two findings.
func (f Finding) Group() string {
	return f.Tool + "\x00" + string(f.Class) + "\x00" + string(f.Kind) + "\x00" + f.Place
}

// String is the finding on one line: tool, class, kind, reason, expectation and answer.
func (f Finding) String() string {
	s := fmt.Sprintf("%s: %s %s: %s (expect %s, got %s)", f.Tool, f.Class, f.Kind, f.Reason, f.Expect, f.Got)
	if f.Reason == "" {
		s = fmt.Sprintf("%s: %s %s (expect %s, got %s)", f.Tool, f.Class, f.Kind, f.Expect, f.Got)
	}
	return s
}

// Explain is the finding in full on a few indented lines, as a go test failure shows it: class,
// kind and reason, the expectation, the arguments, the place, the issues, the detail and the id.
func (f Finding) Explain() string {
	var b strings.Builder
	reason := f.Reason
	if reason == "" && f.Class == corpus.Valid {
		reason = "a valid call"
	}
	fmt.Fprintf(&b, "%s %s: %s\n", f.Class, f.Kind, reason)
	if at := atText(f.Location); at != "" {
		fmt.Fprintf(&b, "  at: %s\n", at)
	}
	fmt.Fprintf(&b, "  expect %s, got %s\n", f.Expect, f.Got)
	fmt.Fprintf(&b, "  args: %s\n", showArgs(string(f.Args)))
	if f.Path != "" || f.Keyword != "" {
		fmt.Fprintf(&b, "  path: %s  keyword: %s\n", f.Path, f.Keyword)
	}
	if len(f.Issues) > 0 {
		fmt.Fprintf(&b, "  issues: %s\n", issuesText(f.Issues))
	}
	if f.Detail != "" {
		fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(f.Detail, "\n", "\n  "))
	}
	fmt.Fprintf(&b, "  id: %s", f.ID)
	return b.String()
}

// issuesText is what a gate said, on one line: its issues joined by "; ".
func issuesText(issues []Issue) string {
	if len(issues) == 0 {
		return "(no issues given)"
	}
	var parts []string
	for _, is := range issues {
		parts = append(parts, is.String())
	}
	return strings.Join(parts, "; ")
}

// suchCases counts the cases like a finding's: "1 such case", "4 such cases".
func suchCases(n int) string {
	if n == 1 {
		return "1 such case"
	}
	return fmt.Sprintf("%d such cases", n)
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		if a.Class != b.Class {
			return a.Class < b.Class
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Place < b.Place
	})
}
