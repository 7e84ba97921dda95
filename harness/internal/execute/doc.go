// Package execute sends the cases toolproof draws to the gate under test and gives back one
// verdict per case, in the order drawn, whatever the gate does meanwhile: it panics, hangs,
// writes into its arguments, or lives in a process that dies and restarts.
//
// An Executor runs the cases of one tool: an in-process gate on a worker goroutine guarded by
// a timeout, a gate in another process in batches (validator.BatchGate), every crash run again
// alone to blame the call that causes it (validator.Isolator), and, once a crash is proven, the
// draws that would only repeat it not sent (crashy.go). A Stream keeps the draws of a gate in
// another process in flight while the next are drawn and judges them in the order drawn.
// Deaths counts the process deaths of a run that no call reproduced; Silence cuts a run short,
// at a point the seed decides, when the validator stops answering.
//
// Nothing here judges a verdict, draws a value or knows rapid: the harness does, and hands the
// verdicts it gets to its judge.
package execute
