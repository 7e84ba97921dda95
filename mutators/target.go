package mutators

import (
	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// Target is a valid value prepared for mutation: every place in it, with the schemas that
// apply there.
type Target struct {
	ctx   *Context
	Value any    // the valid value (never changed)
	Text  []byte // its canonical argument text
	sites []*site
}

// Target prepares v, a value the oracle accepts, for mutation.
func (c *Context) Target(v any) *Target {
	tg := &Target{ctx: c, Value: v}
	tg.sites, tg.Text = annotate(c.Oracle().Schema(), v)
	return tg
}

// DoublesDiffer is Context.DoublesDiffer for the Target's value, which the oracle accepts,
// read from its text: whether it may turn invalid when its numbers and the schema's are read
// as binary64 doubles.
func (tg *Target) DoublesDiffer() bool { return tg.ctx.readings.DoublesDiffer(tg.Value, tg.Text, nil) }

// text is the canonical text of value, the candidate c's: for a replacement, the Target's text
// with the new value's spliced in where the old one was (the same bytes as writing it all).
func (tg *Target) text(c candidate, value any) []byte {
	if s := c.replaces; s != nil && s.end > s.start {
		// The new value's text written in place, between the Target's text before and after.
		out := append(make([]byte, 0, len(tg.Text)+32), tg.Text[:s.start]...)
		return append(mustAppend(out, c.with), tg.Text[s.end:]...)
	}
	if c.text != nil {
		if b := c.text(); b != nil {
			return b
		}
	}
	return jsonvalue.MustMarshal(value)
}

// splice is the Target's text with the bytes from start to end replaced by with.
func (tg *Target) splice(start, end int, with []byte) []byte {
	out := make([]byte, 0, len(tg.Text)-(end-start)+len(with))
	return append(append(append(out, tg.Text[:start]...), with...), tg.Text[end:]...)
}

// children are the sites of the members of the object or items of the array at s, in order;
// ok is false when the walk stopped above them (too deep).
func (tg *Target) children(s *site) (out []*site, ok bool) {
	for _, c := range tg.sites {
		if c.parent == s {
			out = append(out, c)
		}
	}
	switch v := s.value.(type) {
	case map[string]any:
		return out, len(out) == len(v)
	case []any:
		return out, len(out) == len(v)
	}
	return nil, false
}

// keyStart is where the member of c starts in the Target's text: at its quoted key.
func (tg *Target) keyStart(c *site) int {
	return c.start - len(jsonvalue.AppendString(nil, c.name)) - 1
}

// withoutKey writes the text of the object at s without its member k (nil: not known here).
func (tg *Target) withoutKey(s *site, k string) func() []byte {
	return func() []byte {
		kids, ok := tg.children(s)
		if !ok {
			return nil
		}
		for _, c := range kids {
			if c.name != k {
				continue
			}
			from, to := tg.keyStart(c), c.end
			if tg.Text[from-1] == ',' {
				from-- // not the first member: its comma goes with it
			} else if to < len(tg.Text) && tg.Text[to] == ',' {
				to++ // the first of several: the comma after it goes
			}
			return tg.splice(from, to, nil)
		}
		return nil
	}
}

// withKey writes the text of the object at s with the member k: v added where its sorted
// place is (nil: not known here).
func (tg *Target) withKey(s *site, k string, v any) func() []byte {
	return func() []byte {
		kids, ok := tg.children(s)
		if !ok {
			return nil
		}
		member := mustAppend(append(jsonvalue.AppendString(nil, k), ':'), v)
		for _, c := range kids {
			if c.name == k {
				return nil // present: not an addition
			}
			if c.name > k {
				at := tg.keyStart(c)
				return tg.splice(at, at, append(member, ','))
			}
		}
		if len(kids) == 0 {
			return tg.splice(s.start+1, s.start+1, member)
		}
		return tg.splice(s.end-1, s.end-1, append([]byte{','}, member...))
	}
}

// wrapped writes the text of {k: the arguments}.
func (tg *Target) wrapped(k string) func() []byte {
	return func() []byte {
		out := append(jsonvalue.AppendString([]byte{'{'}, k), ':')
		return append(append(out, tg.Text...), '}')
	}
}

// at builds candidates that replace the value at s by v.
func at(tg *Target, s *site, v any) func() any {
	return func() any { return jsonvalue.Replaced(tg.Value, s.tokens(), v) }
}
