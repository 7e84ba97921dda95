package harness

import (
	"strings"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// reportIssues are a gate's issues as a finding carries them (nil for none).
func reportIssues(issues []validator.Issue) []report.Issue {
	if issues == nil {
		return nil
	}
	out := make([]report.Issue, len(issues))
	for i, is := range issues {
		out[i] = report.Issue{Path: is.Path, Keyword: is.Keyword, Message: is.Message}
	}
	return out
}

// issuesText is what a gate said, on one line: its issues joined by "; ".
func issuesText(issues []validator.Issue) string {
	if len(issues) == 0 {
		return "(no issues given)"
	}
	parts := make([]string, len(issues))
	for i, is := range issues {
		parts[i] = is.String()
	}
	return strings.Join(parts, "; ")
}

// faultKind is the kind of finding of a gate with no verdict: the fault's, named as it is.
func faultKind(f validator.Fault) report.Kind {
	switch f {
	case validator.Crash:
		return report.Crash
	case validator.Timeout:
		return report.Timeout
	case validator.ProtocolError:
		return report.ProtocolError
	case validator.GateError:
		return report.GateError
	}
	return report.Kind(f)
}

// Skips are skipped tools as a report lists them (report.Report.Skipped), in order.
func Skips(ss []tool.Skipped) []report.Skipped {
	out := make([]report.Skipped, len(ss))
	for i, s := range ss {
		out[i] = report.Skipped(s)
	}
	return out
}
