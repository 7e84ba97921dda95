// Package validator holds what toolproof tests: the Validator contract, the verdict a gate gives
// on one call, the built-in reference gatekeeper (santhosh-tekuri/jsonschema, strict, no
// coercion), the Oracle (that gatekeeper's readings of one tool: exact, formats as annotations,
// numbers read as doubles, each compiled once), and Func for wrapping a Go gate in a few lines.
package validator
