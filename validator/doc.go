// Package validator holds what toolproof tests: the Validator contract, the verdict a gate gives
// on one call, the built-in reference gatekeeper (santhosh-tekuri/jsonschema, strict, no
// coercion), and Func for wrapping a Go gate in a few lines.
package validator
