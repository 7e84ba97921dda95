package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/url"
	"sort"
)

// SARIFOptions is what a SARIF report carries beyond the reports.
type SARIFOptions struct {
	Version string // toolproof's version, for the tool's driver ("" leaves it out)
	// File locates the results whose tool comes from no tool file (an MCP server over HTTP, a
	// server command naming no file): code scanning refuses a result without a file. "" leaves
	// them with a logical location only.
	File string
}

// sarifLog and the types below are the part of SARIF 2.1.0 the report uses.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"` // one a report: its verdict
	Results     []sarifResult     `json:"results"`
	ColumnKind  string            `json:"columnKind"` // what a region's columns count: Source.Column's characters
}

// sarifInvocation is one validator's run: successful unless it checked nothing or was
// interrupted, its verdict line as a notification, the verdict in its properties.
type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications"`
	Properties                 map[string]any      `json:"properties"`
}

type sarifNotification struct {
	Level   string    `json:"level"`
	Message sarifText `json:"message"`
}

// sarifInvocationOf is the invocation of r: its verdict, and the tools skipped by name.
func sarifInvocationOf(r *Report) sarifInvocation {
	v := r.Outcome()
	level := map[string]string{"PASS": "note", "FAIL": "note", "INTERRUPTED": "warning", "UNCHECKED": "error"}[v.Status]
	skipped := v.Skipped
	if skipped == nil {
		skipped = []string{}
	}
	return sarifInvocation{ExecutionSuccessful: v.Status == "PASS" || v.Status == "FAIL",
		ToolExecutionNotifications: []sarifNotification{{Level: level,
			Message: sarifText{r.Validator + ": " + v.Line()}}},
		Properties: map[string]any{"validator": r.Validator, "verdict": v.Status, "passed": r.Passed,
			"toolsChecked": v.Checked, "toolsSkipped": skipped}}
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

// sarifHelp is a rule's help, as text and as Markdown (GitHub code scanning shows the Markdown).
type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     sarifText      `json:"shortDescription"`
	FullDescription      sarifText      `json:"fullDescription"`
	Help                 sarifHelp      `json:"help"`
	HelpURI              string         `json:"helpUri"`
	DefaultConfiguration map[string]any `json:"defaultConfiguration"`
	Properties           map[string]any `json:"properties"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	BaselineState       string            `json:"baselineState,omitempty"`
	Properties          map[string]any    `json:"properties"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations"`
}

type sarifPhysical struct {
	ArtifactLocation struct {
		URI string `json:"uri"`
	} `json:"artifactLocation"`
	Region *sarifRegion `json:"region,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type sarifLogical struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName,omitempty"`
	Kind               string `json:"kind"`
}

const sarifDocs = "https://github.com/toolproof/toolproof/blob/main/docs/"

// WriteSARIF writes the report as SARIF 2.1.0, for code scanning: one result per blocking
// finding (known ones as warnings), the rule being its class and kind, located at the place in
// the tool file of the part of the schema it is about (Finding.Location), else at the tool's
// definition (Report.Sources).
func (r *Report) WriteSARIF(w io.Writer, opts SARIFOptions) error {
	return writeSARIF(w, []*Report{r}, opts)
}

// WriteSARIF writes the comparison as one SARIF run holding every validator's results.
func (cmp *Comparison) WriteSARIF(w io.Writer, opts SARIFOptions) error {
	return writeSARIF(w, cmp.Reports, opts)
}

func writeSARIF(w io.Writer, rs []*Report, opts SARIFOptions) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "toolproof",
		InformationURI: "https://github.com/toolproof/toolproof",
		Version:        opts.Version, Rules: []sarifRule{}}}, Invocations: []sarifInvocation{},
		Results:    []sarifResult{},
		ColumnKind: "unicodeCodePoints"}
	ruleIndex := map[string]int{}
	var ids []string
	for _, r := range rs {
		for _, f := range r.Findings {
			if f.Blocking {
				if id := string(f.Class) + "/" + string(f.Kind); !contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
	}
	sort.Strings(ids)
	for i, id := range ids {
		ruleIndex[id] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleFor(id))
	}
	for _, r := range rs {
		run.Invocations = append(run.Invocations, sarifInvocationOf(r))
		for _, f := range r.Findings {
			if f.Blocking {
				id := string(f.Class) + "/" + string(f.Kind)
				run.Results = append(run.Results, r.sarifResult(f, id, ruleIndex[id], opts))
			}
		}
	}
	enc := NewJSONEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0",
		Runs: []sarifRun{run}})
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// sarifRuleFor describes the rule CLASS/KIND.
func sarifRuleFor(id string) sarifRule {
	var class, kind string
	for i := 0; i < len(id); i++ {
		if id[i] == '/' {
			class, kind = id[:i], id[i+1:]
		}
	}
	short := fmt.Sprintf("%s: %s", class, kindMeaning[Kind(kind)])
	if class == "valid" {
		short = fmt.Sprintf("valid arguments: %s", kindMeaning[Kind(kind)])
	}
	full := fmt.Sprintf("The gate under test gave a wrong verdict on a %s case (%s). The result holds the minimal "+
		"case (or says it was not shrunk); toolproof replay repeats it.", class, kind)
	return sarifRule{ID: id, Name: ruleName(class, kind), ShortDescription: sarifText{short},
		FullDescription:      sarifText{full},
		Help:                 sarifRuleHelp(class, kind, short),
		HelpURI:              sarifDocs + "verdicts.md",
		DefaultConfiguration: map[string]any{"level": "error"},
		Properties:           map[string]any{"tags": []string{"toolproof", class, kind}}}
}

// ruleName is the rule's name, CLASS/KIND in Pascal case (StringifiedTypeMissed), as SARIF wants a
// name that is not the id.
func ruleName(class, kind string) string {
	var b []byte
	up := true
	for i := 0; i < len(class+"_"+kind); i++ {
		c := (class + "_" + kind)[i]
		switch {
		case c == '_' || c == '-':
			up = true
		case up && c >= 'a' && c <= 'z':
			b, up = append(b, c-'a'+'A'), false
		default:
			b, up = append(b, c), false
		}
	}
	return string(b)
}

// sarifRuleHelp is the help of the rule CLASS/KIND: what it means, where the result holds the
// minimal case, how to replay it and where the class and the verdicts are described.
func sarifRuleHelp(class, kind, short string) sarifHelp {
	text := fmt.Sprintf("%s.\n\nThe gate under test gave a wrong verdict (%s) on a case of the class %s. The "+
		"result's message "+
		"holds the minimal case (the arguments exactly as sent); `toolproof replay REPORT.json --id ID --validator "+
		"SPEC` "+
		"runs it again from the run's JSON report. The class: %staxonomy.md. The verdicts: %sverdicts.md.",
		short, kind, class, sarifDocs, sarifDocs)
	md := fmt.Sprintf("**%s**\n\nThe gate under test gave a wrong verdict (`%s`) on a case of the class `%s`. "+
		"The result's message holds the minimal case (the arguments exactly as sent); "+
		"`toolproof replay REPORT.json --id ID --validator SPEC` runs it again from the run's JSON report.\n\n"+
		"- [the classes of distortion](%staxonomy.md)\n- [what counts as a finding](%sverdicts.md)",
		short, kind, class, sarifDocs, sarifDocs)
	return sarifHelp{Text: text, Markdown: md}
}

// kindMeaning is each kind in a few words, for the SARIF rules.
var kindMeaning = map[Kind]string{
	Missed:            "a must-reject case accepted",
	FalseReject:       "a valid case rejected",
	WrongRepair:       "a distortion accepted, but not repaired to the original value",
	SilentChange:      "a valid case accepted, but the value passed on differs from it",
	ImpreciseLocation: "rejected, but no issue points at the place",
	Leak:              "an error message repeats an argument value",
	MutatedInput:      "the gate wrote into the argument bytes it was given",
	Crash:             "the gate crashed",
	Timeout:           "the gate hung",
	ProtocolError:     "the gate answered nonsense",
}

func (r *Report) sarifResult(f Finding, id string, index int, opts SARIFOptions) sarifResult {
	res := sarifResult{RuleID: id, RuleIndex: index, Level: "error",
		Message:             sarifText{sarifMessage(r.Validator, f)},
		PartialFingerprints: map[string]string{"toolproofFinding/v1": fingerprint(r.Validator, f)},
		Properties: map[string]any{"validator": r.Validator, "tool": f.Tool, "class": string(f.Class),
			"kind": string(f.Kind),
			"args": showArgs(string(f.Args)), "path": f.Path, "id": f.ID, "shrunk": f.Shrunk}}
	if f.Known {
		res.Level = "warning"
	}
	if r.Baseline != nil {
		res.BaselineState = "new"
		if f.Known {
			res.BaselineState = "unchanged"
		}
	}
	src := r.Sources[f.Tool]
	loc := sarifLocation{LogicalLocations: []sarifLogical{{Name: f.Tool, Kind: "function"}}}
	if src.Served != "" {
		loc.LogicalLocations[0].FullyQualifiedName = src.Served + "#" + f.Tool
	}
	if f.Location.File != "" && f.Location.Line > 0 {
		// The place in the tool's schema the finding is about, rather than the tool's name.
		src = f.Location
		res.Properties["schema"] = src.Schema
	}
	if src.File == "" && opts.File != "" {
		src.File, src.Line, src.Column = opts.File, 0, 0
	}
	if src.File != "" {
		p := &sarifPhysical{}
		p.ArtifactLocation.URI = fileURI(src.File)
		if src.Line > 0 {
			p.Region = &sarifRegion{StartLine: src.Line, StartColumn: src.Column}
		}
		loc.PhysicalLocation = p
	}
	res.Locations = []sarifLocation{loc}
	return res
}

// unshrunkText is " (NOTE)" for a finding whose case was not shrunk, "" for one that was.
// sarifMessage is a result's message: the finding, and its case, which code scanning shows
// (properties it does not), said to be minimal only when it was shrunk.
func sarifMessage(validator string, f Finding) string {
	which := "Minimal case"
	if !f.Shrunk {
		which = "Case"
	}
	return fmt.Sprintf("%s: %s. %s: %s (id %s)", validator, f.String(), which, showArgs(string(f.Args)), f.ID) +
		unshrunkText(f)
}

func unshrunkText(f Finding) string {
	if note := f.ShrinkNote(); note != "" {
		return " (" + note + ")"
	}
	return ""
}

// fileURI is a file's path as a URI reference (SARIF's artifactLocation.uri): each segment
// percent-encoded (a space, "%", "#", a letter not ASCII), a first segment with a colon after "./".
func fileURI(path string) string {
	return (&url.URL{Path: path}).String()
}

// fingerprint names a finding across runs: its validator, tool, class and kind (the baseline's key).
func fingerprint(validator string, f Finding) string {
	h := sha256.Sum256([]byte(validator + "\x00" + f.Group()))
	return hex.EncodeToString(h[:16])
}
