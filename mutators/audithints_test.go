package mutators

import (
	"slices"
	"testing"
)

// heldKeys gives misnamed_key's and missing_required's probes the same names: the required ones
// the object holds, else the declared ones it holds, in name order; none for a value that is no
// object.
func TestHeldKeys(t *testing.T) {
	obj := map[string]any{"b": 1, "a": 2, "z": 3}
	for _, tc := range []struct {
		name               string
		x                  any
		required, declared []string
		want               []string
	}{
		{"required held, in order", obj, []string{"z", "b", "gone"}, []string{"a", "b", "z"}, []string{"b", "z"}},
		{"declared when none is required", obj, nil, []string{"z", "a", "gone"}, []string{"a", "z"}},
		{"nothing named", obj, nil, nil, nil},
		{"no object", []any{"a"}, []string{"a"}, []string{"a"}, nil},
	} {
		p := &Probe{X: tc.x, Required: tc.required, Declared: tc.declared}
		got, keys := p.heldKeys()
		if !slices.Equal(keys, tc.want) {
			t.Errorf("%s: keys %q, want %q", tc.name, keys, tc.want)
		}
		if _, isObject := tc.x.(map[string]any); isObject != (got != nil) {
			t.Errorf("%s: object %v for %v", tc.name, got, tc.x)
		}
	}
	// The names given are not reordered in place.
	req := []string{"z", "b"}
	(&Probe{X: obj, Required: req}).heldKeys()
	if !slices.Equal(req, []string{"z", "b"}) {
		t.Errorf("heldKeys reordered the probe's Required: %q", req)
	}
}
