package validator

import (
	"regexp"
	"strings"
)

// Wording is a tool's own words for its error answers, as the user gives them (--reject-pattern,
// --ran-pattern). An error answer whose text Reject matches is a rejection; one whose text Ran
// matches means the tool ran and then failed, which for the gate is a pass. nil matches nothing.
type Wording struct {
	Reject *regexp.Regexp
	Ran    *regexp.Regexp
}

// Reread returns v as w reads it: an unclear error answer (Unclear with an ErrorAnswer) whose
// text, its issues' messages or else its Detail, matches Reject or Ran becomes a rejection with
// its issues or an acceptance; any other verdict is returned as it is. Reject is tried first.
func (w Wording) Reread(v Verdict) Verdict {
	if !v.Unclear || v.ErrorAnswer == "" || (w.Reject == nil && w.Ran == nil) {
		return v
	}
	text := v.Detail
	if len(v.Issues) > 0 {
		msgs := make([]string, len(v.Issues))
		for i, is := range v.Issues {
			msgs[i] = is.Message
		}
		text = strings.Join(msgs, "\n")
	}
	switch {
	case w.Reject != nil && w.Reject.MatchString(text):
		issues := v.Issues
		if len(issues) == 0 {
			issues = []Issue{{Message: text}}
		}
		return Reject(issues...)
	case w.Ran != nil && w.Ran.MatchString(text):
		return Accept()
	}
	return v
}
