package generate

import "github.com/toolproof/toolproof/validator/oracle"

// NewAnyValue is New without the plain-object root rule: the keyword tests draw any value
// of a schema at the root, scalars included.
func NewAnyValue(gk *oracle.Gatekeeper) (*Generator, error) { return newGenerator(gk, false) }
