package mutators

// wrapped_scalar read backwards: an array of one scalar where the schema does not take an
// array; undone by taking the scalar out.
func (wrappedScalar) undo(r *reading, s *site) []undo {
	a, ok := s.value.([]any)
	if !ok || len(a) != 1 || s.parent == nil {
		return nil
	}
	switch a[0].(type) {
	case []any, map[string]any:
		return nil
	}
	u := undo{class: WrappedScalar, variant: "wrapped", path: s.path, value: r.replace(s, a[0])}
	if s.takes("array") {
		// Where an array is also taken, [x] is as well an array cut below minItems.
		u.alike = []string{string(OutOfRangeEnum) + ":too-few-items"}
	}
	return []undo{u}
}
