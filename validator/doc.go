// Package validator is the contract toolproof tests: a Validator compiles a Gate for each tool, a
// Gate gives a Verdict on one call, and Func wraps a Go gate in a few lines. The optional
// capabilities a validator may declare (its own tools, batches, isolation, Close, Err, Notes) are
// interfaces here too. The reference gatekeeper and its oracle live in validator/oracle; each
// transport (stdio, mcp, node, python) in a package of its own.
package validator
