// Package harness proves a validator of tool-call arguments holds: for every tool it draws
// valid arguments and their distortions (through rapid, so failures shrink), asks the validator
// for a verdict on each, and turns wrong verdicts into findings. It runs inside go test (Check,
// fuzz targets) or on its own (Run, Replay), keeps failing cases in a regression corpus that is
// replayed first, and returns a report.Report (package report renders and merges it).
//
// One concept a file: run.go (Run and the pipeline of tools), check.go (one tool: its saved
// cases, its scorecard, its draws), judge.go (the verdict rules), shrink.go (minimal cases, and
// which tool shrinks what), runner.go (an in-process gate run safely: panics, hangs, mutated
// input), internal/rapidseam (every setting shared with rapid, and a check that ends itself), prepare.go (a tool made ready for the
// oracle, the generator and the gate), result.go (a tool's result into the report), shard.go
// (a shard of the tools), testing.go (Check), fuzz.go (fuzz targets), replay.go and gen.go.
package harness
