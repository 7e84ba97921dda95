// Package generate makes valid argument values from a tool's compiled JSON Schema, drawn
// through rapid so failing cases shrink. Every value is confirmed by the oracle (the reference
// gatekeeper) before it is returned; a value the oracle rejects is a generator bug, counted in
// Stats and never returned.
//
// A schema is planned once into nodes (generator.go; types.go picks the types, dead.go says why
// none can have a value) and each draw walks the plan: numbers (number.go), strings (string.go,
// formats.go; a pattern rewritten for RE2 in lookaround.go, through one scanner, scanner.go),
// arrays (arrays.go) and objects (objects.go). Where no string can be built for a pattern, the
// schema's matching examples and default are drawn; without them New's ErrCannotConstruct or
// Stats' Unbuilt names the pattern.
package generate
