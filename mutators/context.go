package mutators

import (
	"sync"
	"sync/atomic"

	"github.com/toolproof/toolproof/validator/oracle"
)

// Context is what mutators know about one tool: its oracle and what its sibling tools (the
// other tools of the same file) declare, for borrowed keys and enum values.
type Context struct {
	readings    *oracle.Oracle // the oracle's readings: exact, formats as annotations, the binary64 rule
	siblingKeys []string       // property names tools of the file declare
	siblingEnum []string       // string enum values they declare

	offTarget    atomic.Int64 // candidates the oracle rejected for another reason than the one meant
	formatOnly   atomic.Int64 // candidates invalid only where format is asserted
	binary64Only atomic.Int64 // candidates whose verdict changes in the binary64 reading
	offMu        sync.Mutex
	offSample    []string
}

// NewContext prepares the context of the tool compiled in gk; sib (nil for none) is what the
// tools of its file declare.
func NewContext(gk *oracle.Gatekeeper, sib *Siblings) *Context {
	c := &Context{readings: gk.Oracle()}
	if sib != nil {
		c.siblingKeys, c.siblingEnum = sib.keys, sib.enums
	}
	return c
}

// DoublesDiffer reports whether the verdict on v (valid: what the oracle found) changes when
// every number in v and in the schema is read as its nearest binary64 double: such a case owes
// no verdict (Either), since RFC 8259 leaves that precision to implementations.
func (c *Context) DoublesDiffer(v any, valid bool) bool {
	if valid {
		return c.readings.DoublesDiffer(v, nil, nil)
	}
	return c.readings.DoublesDiffer(v, nil, c.readings.Causes(v))
}

// Binary64Only counts distortions that were invalid only where numbers are read exactly; a
// better one was drawn, or the case was kept as Either.
func (c *Context) Binary64Only() int64 { return c.binary64Only.Load() }

// OffTarget counts candidates the oracle rejected, but not for the keyword at the place the
// mutator meant; they are not kept as cases.
func (c *Context) OffTarget() int64 { return c.offTarget.Load() }

// Oracle is the gatekeeper that judges candidates.
func (c *Context) Oracle() *oracle.Gatekeeper { return c.readings.Gatekeeper() }

// laxValid reports whether v is valid with format as an annotation.
func (c *Context) laxValid(v any) bool {
	lax := c.readings.Lax()
	return lax != nil && lax.Valid(v)
}

// FormatOnly counts candidates that were invalid only where format is asserted; they are not
// kept as cases.
func (c *Context) FormatOnly() int64 { return c.formatOnly.Load() }

// OffTargetSamples returns the first few off-target candidates, described.
func (c *Context) OffTargetSamples() []string {
	c.offMu.Lock()
	defer c.offMu.Unlock()
	return append([]string(nil), c.offSample...)
}
