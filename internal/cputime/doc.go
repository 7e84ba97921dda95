// Package cputime reads the CPU time of this process and of its ended children, for benchmarks
// that report CPU beside wall time (steadier on a busy machine, and the only way to tell a
// validator's own cost from toolproof's).
package cputime
