// Package oracle is toolproof's judge: the reference gatekeeper (santhosh-tekuri/jsonschema, strict,
// no coercion), compiled once per tool, and its Oracle, that gatekeeper's readings of one tool
// (exact, formats as annotations, numbers read as doubles, each compiled once) and the questions
// the generator, the mutators, the harness and the audit ask of them (Errors, Causes, Explain,
// CausesAndErrors).
// Patterns are ECMA-262 regular expressions with the u flag (regexp2's ECMAScript mode, ecma.go).
package oracle
