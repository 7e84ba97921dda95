// Package report holds what a run of toolproof found and writes it out: the Report of one
// validator (class statistics, findings, skipped tools), the Comparison of several, the JSON
// Document both are saved as, and Merge, which puts the reports of the shards of a run back
// together into the report of the whole run.
//
// A report is rendered through one model built once from it (a summary: the classes in order,
// the kinds seen, the checks, the counts; a comparison's: the summary of each validator), by a
// small renderer per format, each in a file of its own: text.go, markdown.go, junit.go,
// json.go, html.go (one self-contained page, its template in html/), sarif.go (SARIF 2.1.0 for
// code scanning) and badge.go (a shields.io endpoint document). The class tables of the text
// and Markdown forms are one Table (table.go) written two ways. A new format is one more
// renderer over the same model, listed in format.go; WriteFormat gives the HTML and SARIF
// renderers their options (the command that repeats the run, a finding's replay command, the
// version).
//
// The text primitives are toolproof's one set: Table (aligned text or Markdown), EscapeLine and
// EscapeText (control characters and bidirectional overrides escaped, escape.go) and Truncate.
// The other text outputs write with them too (toolproof classify's summary, toolproof audit).
//
// A finding carries where in its tool file the part of the tool's schema it is about is written
// (Finding.Location), and the report where each tool with a finding is defined (Report.Sources):
// the harness finds both as it judges. Every format shows that one place (Report.At); SARIF's
// region is it.
//
// A baseline (package baseline) marks the findings it knows (Finding.Known: reported, not
// failing) and records what it found (Report.Baseline: the known entries that reproduce and the
// fixed ones, which fail the run).
//
// The harness package builds reports: it judges the cases, counts them (ClassStats), places the
// findings, gives the order of the classes (Report.ClassOrder) and turns a gate's issues and
// skipped tools into the report's own (Issue, Skipped). Nothing here runs a validator, compiles
// a schema or judges a call: the package imports corpus (the case a finding holds) and the
// standard library only, which TestImportsNoJudge holds it to.
package report
