package procgroup

import (
	"strings"
	"testing"
)

// TestTagEnv: a new Tag's variable is its name and a value of its own; the zero Tag gives the
// name and an empty value instead of panicking.
func TestTagEnv(t *testing.T) {
	name, value := NewTag().Env()
	if name != tagVariable || len(value) == 0 || strings.Contains(value, "=") {
		t.Errorf("NewTag().Env() = %q, %q", name, value)
	}
	if _, other := NewTag().Env(); other == value {
		t.Errorf("two new tags share the value %q", value)
	}
	if name, value := (Tag{}).Env(); name != tagVariable || value != "" {
		t.Errorf("Tag{}.Env() = %q, %q; want %q and empty", name, value, tagVariable)
	}
}
