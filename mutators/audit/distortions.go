package audit

// ModelDistortions is places without those that pass only because they are unconstrained (a free
// string, a number without bounds, Place.Unconstrained): another value there is a valid value,
// not a distortion a model sends. It decides by the schema's structure, never by a reason's text.
func ModelDistortions(places []Place) []Place {
	kept := []Place{}
	for _, p := range places {
		if p.Status == Passes && p.Unconstrained {
			continue
		}
		kept = append(kept, p)
	}
	return kept
}
