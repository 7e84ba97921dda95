package report

import "fmt"

// Skipped is a tool the run could not check, as a report lists it: its name ("" when it has
// none), where it was defined (file and entry), and why. The harness makes it from a
// Skipped.
type Skipped struct {
	Tool   string `json:"tool"`
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// String is "NAME (SOURCE): REASON", (unnamed) for a tool without a name.
func (s Skipped) String() string {
	name := s.Tool
	if name == "" {
		name = "(unnamed)"
	}
	return fmt.Sprintf("%s (%s): %s", name, s.Source, s.Reason)
}
