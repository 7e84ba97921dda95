// Package harness proves a validator of tool-call arguments holds: for every tool it draws
// valid arguments and their distortions (through rapid, so failures shrink), asks the validator
// for a verdict on each, and turns wrong verdicts into findings. It runs inside go test (Check,
// fuzz targets) or on its own (Run, Replay), keeps failing cases in a regression corpus that is
// replayed first, and returns a report.Report (package report renders and merges it).
//
// The core, one concept a file: check.go (one tool: its saved cases, its scorecard, its
// draws), judge.go (the verdict rules), basis.go (what each case is judged against), shrink.go
// (minimal cases, the steps that bound them, and which tool shrinks what), profile.go (the
// strict and repair verdict rules), stats.go (each case counted in its class), diff.go (the
// value a gate passed on against the one sent), leak.go (a gate's message that hands back what
// the call sent), issues.go (a gate's issues, faults and skipped
// tools as the report holds them), place.go and locate.go (where in its tool file the part of
// the schema a finding is about is written, found with the Gatekeeper the tool was checked
// with, Options.Files). The harness builds the whole model: package report only renders it.
// Around it: harness.go (Options), run.go
// (Run and the pipeline of tools), prepare.go (a tool made ready for the oracle, the generator
// and the gate), result.go (a tool's result into the report), weights.go (draws by class
// weights), defaults.go (declared defaults), shard.go (a shard of the tools), testing.go
// (Check), fuzz.go (fuzz targets), replay.go and gen.go.
//
// Two seams keep the machinery out of the core:
//   - internal/execute sends the cases to the gate and gives the verdicts back in the order
//     drawn: an in-process gate run safely (panics, hangs, mutated input), a gate in another
//     process kept in flight, crashes blamed on the call that causes them, a validator that
//     stops answering cut off where the seed decides;
//   - internal/rapidseam is every setting shared with rapid, and a check that ends itself.
package harness
