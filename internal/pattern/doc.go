// Package pattern finds JSON Schema patterns whose syntax not every regex dialect reads alike.
// JSON Schema patterns are ECMA-262 regular expressions; toolproof's oracle compiles them as
// ECMA-262 (regexp2), Go validators mostly as RE2 (Go's regexp), and validators in other
// languages use their own engines (Python's re for python-jsonschema). A pattern that leans on
// syntax only some of them have is accepted by one validator and refused, or read differently,
// by another: the tool loader and audit warn.
package pattern
