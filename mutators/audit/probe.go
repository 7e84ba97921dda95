package audit

import "github.com/toolproof/toolproof/mutators"

// probes returns the group's distortions of the sample's value at loc: the forms its class's
// audit hints build there (a mutator skips the places where the schema lets its class through,
// and keeps only what the oracle rejects; the audit builds them at every place).
func probes(g *group, s sample, loc []string) []mutators.ProbeForm {
	if g.hints.Probe == nil {
		return nil
	}
	p, ok := mutators.NewProbe(s.value, s.text, loc, g.declared, g.required)
	if !ok {
		return nil
	}
	g.hints.Probe(p)
	return p.Forms
}
