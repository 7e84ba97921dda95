package report

// Issue is one thing a gate said is wrong with a call, as a report shows it: where in the
// arguments (a JSON Pointer, "" the root), the schema keyword when known, and the message. The
// harness makes it from the gate's validator.Issue.
type Issue struct {
	Path    string `json:"path"`
	Keyword string `json:"keyword,omitempty"`
	Message string `json:"message"`
}

// String is "PATH: MESSAGE", with the root written (root).
func (i Issue) String() string {
	p := i.Path
	if p == "" {
		p = "(root)" // not "/", which is the pointer of the key ""
	}
	return p + ": " + i.Message
}
