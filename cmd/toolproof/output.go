package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/atomicfile"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/tool"
)

// reportFile is one --report FORMAT=FILE: another report of the same run, written to a file.
type reportFile struct{ format, path string }

// reportFlags collects --report FORMAT=FILE (repeatable).
type reportFlags []reportFile

func (r *reportFlags) String() string {
	var parts []string
	for _, f := range *r {
		parts = append(parts, f.format+"="+f.path)
	}
	return strings.Join(parts, ",")
}

func (r *reportFlags) Set(v string) error {
	format, path, ok := strings.Cut(v, "=")
	if !ok || path == "" {
		return fmt.Errorf("want FORMAT=FILE (html=toolproof.html), got %q", v)
	}
	if !report.KnownFormat(format) {
		return fmt.Errorf("%q: unknown format %q (want %s)", v, format, report.FormatList())
	}
	*r = append(*r, reportFile{format, path})
	return nil
}

// jsonPath is the file of the JSON report the flags write, or "".
func (r reportFlags) jsonPath() string {
	for _, f := range r {
		if f.format == "json" {
			return f.path
		}
	}
	return ""
}

// outputs is where a command's reports go: one format to stdout, more to files, and what the
// HTML and SARIF formats show beyond the reports.
type outputs struct {
	format string
	files  reportFlags
	render report.RenderOptions
	// captured holds the validators' stderr, named under the text report (nil: it passed through).
	captured *stderrLog
}

func checkFormat(format string) error {
	if !report.KnownFormat(format) {
		return usagef("--format %q: want %s", format, report.FormatList())
	}
	return nil
}

// write writes the report (one validator) or the comparison (several) in a format.
func write(w io.Writer, reports []*report.Report, format string, opts report.RenderOptions) error {
	if len(reports) == 1 {
		return reports[0].WriteFormat(w, format, opts)
	}
	return (&report.Comparison{Reports: reports}).WriteFormat(w, format, opts)
}

// writeFiles writes the --report files; a file that cannot be written is an error naming it.
func writeFiles(reports []*report.Report, out outputs) error {
	var errs []error
	for _, f := range out.files {
		if err := writeReportFile(reports, out, f); err != nil {
			errs = append(errs, fmt.Errorf("--report %s=%s: %v", f.format, f.path, err))
		}
	}
	return errors.Join(errs...)
}

// writeReportFile writes one --report file atomically: a full disk or a signal leaves no truncated
// report behind.
func writeReportFile(reports []*report.Report, out outputs, f reportFile) error {
	var buf bytes.Buffer
	if err := write(&buf, reports, f.format, out.render); err != nil {
		return err
	}
	if dir := filepath.Dir(f.path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return atomicfile.WriteFile(f.path, buf.Bytes(), 0o644)
}

// repeatCommand is the command line that repeats a run: the command and its arguments without
// the flags that only choose where reports go, with the seed the run used, and with no secret
// (recordedArg).
func repeatCommand(command string, args []string, seed uint64) string {
	drop := map[string]bool{"format": true, "report": true, "cpuprofile": true, "save": true}
	words := []string{"toolproof", command}
	hasSeed := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := strings.TrimLeft(a, "-")
		if !strings.HasPrefix(a, "-") || name == "" {
			words = append(words, shellWord(a))
			continue
		}
		name, value, withValue := strings.Cut(name, "=")
		if name == "seed" {
			hasSeed = true
		}
		if drop[name] {
			if !withValue && i+1 < len(args) {
				i++
			}
			continue
		}
		switch {
		case withValue:
			a = a[:len(a)-len(value)] + recordedArg(name, value)
		case i+1 < len(args) && (name == "header" || name == "validator"):
			i++
			words = append(words, shellWord(a))
			a = recordedArg(name, args[i])
		}
		words = append(words, shellWord(a))
	}
	if !hasSeed && seed != 0 {
		words = append(words, "--seed", fmt.Sprint(seed))
	}
	return strings.Join(words, " ")
}

// recordedArg is the value of a flag as the report records it: a --header value and an mcp:
// URL's password and query values redacted, so that no secret reaches a report.
func recordedArg(flag, value string) string {
	switch flag {
	case "header":
		return mcp.RedactHeaderSpec(value)
	case "validator":
		return registry.RedactSpec(value)
	}
	return value
}

// shellWord quotes s for a POSIX shell when it holds anything but safe characters.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:/=@+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// replayCommand gives, for a finding, the toolproof replay command that repeats it from the JSON
// report of the run (jsonFile, or REPORT.json when none is written), with the validator's spec
// and the run's tool files and options.
func replayCommand(f *runFlags, specs map[string]string, jsonFile string) func(*report.Report, report.Finding) string {
	if jsonFile == "" {
		jsonFile = "REPORT.json"
	}
	return func(r *report.Report, fd report.Finding) string {
		words := []string{"toolproof", "replay", shellWord(jsonFile), "--id", fd.ID}
		if spec := specs[r.Validator]; spec != "" {
			words = append(words, "--validator", shellWord(spec))
		}
		for _, t := range f.tools {
			words = append(words, "--tools", shellWord(t))
		}
		if f.close {
			words = append(words, "--close")
		}
		if f.profile != "" && f.profile != "strict" {
			words = append(words, "--profile", f.profile)
		}
		if f.requireLoc {
			words = append(words, "--require-location")
		}
		return strings.Join(words, " ")
	}
}

// toolFiles gives the harness the bytes the tools were read from (tool.Set.Texts), to say where in
// them each finding is, named relative to the working directory; nothing for tools a validator
// lists (served: node:, mcp:), which sources locates.
func toolFiles(served string, texts map[string][]byte) harness.Files {
	if served != "" {
		return harness.Files{}
	}
	// Never a second read: a pipe gives nothing then (a named one blocks), and a file edited
	// since would put places wrongly.
	return harness.Files{Read: func(path string) []byte { return texts[path] }, Name: relPath}
}

// sources says, for a tool a validator lists (served: node:, mcp:), where each tool with a
// finding is defined: the validator's spec, with the module (or the first file of the server's
// command) as the file. Tools read from files were located by the harness (toolFiles).
func sources(reports []*report.Report, tools []tool.Tool, served string) {
	if served == "" {
		return
	}
	files := map[string][]byte{}
	read := func(path string) []byte {
		if data, ok := files[path]; ok {
			return data
		}
		data, _ := os.ReadFile(path)
		files[path] = data
		return data
	}
	byName := map[string]tool.Tool{}
	for _, t := range tools {
		byName[t.Name] = t
	}
	for _, r := range reports {
		for _, f := range r.Findings {
			if _, done := r.Sources[f.Tool]; done {
				continue
			}
			t, ok := byName[f.Tool]
			if !ok {
				continue
			}
			if r.Sources == nil {
				r.Sources = map[string]report.Source{}
			}
			r.Sources[f.Tool] = sourceOf(t, served, read)
		}
	}
}

// sourceOf locates a tool a validator lists: in the module or the server's file, at its name. A
// file inside node_modules (an installed server, "mcp:node_modules/.bin/NAME") is the package's
// code, which the user cannot act on: it is named as the package, without a place.
func sourceOf(t tool.Tool, served string, read func(string) []byte) report.Source {
	s := report.Source{Served: served, File: servedFile(served)}
	if pkg := installedPackage(s.File); pkg != "" {
		s.File, s.Package = "", pkg
	}
	if s.File != "" {
		s.Line, s.Column = locateLoose(read(s.File), t.Name)
	}
	return s
}

// servedFile is the file behind a validator that lists its tools: node:PATH's module, or the
// first argument of an MCP server's command that is a file here ("mcp:node build/server.js").
func servedFile(spec string) string {
	if p, ok := strings.CutPrefix(spec, "node:"); ok {
		return relPath(p)
	}
	if cmd, ok := strings.CutPrefix(spec, "mcp:"); ok {
		for _, w := range strings.Fields(cmd) {
			if info, err := os.Stat(w); err == nil && info.Mode().IsRegular() {
				return relPath(w)
			}
		}
	}
	return ""
}

// installedPackage is the npm package whose installed files hold file, its symlinks followed
// (node_modules/.bin/NAME leads into the package): "@scope/name" or "name"; "" for a file
// outside node_modules.
func installedPackage(file string) string {
	if file == "" {
		return ""
	}
	if real, err := filepath.EvalSymlinks(file); err == nil {
		file = real
	}
	parts := strings.Split(filepath.ToSlash(file), "/")
	pkg := ""
	for i := 0; i+1 < len(parts); i++ { // the innermost node_modules names the package
		if parts[i] != "node_modules" || parts[i+1] == ".bin" {
			continue
		}
		pkg = parts[i+1]
		if strings.HasPrefix(pkg, "@") && i+2 < len(parts) {
			pkg += "/" + parts[i+2]
		}
	}
	return pkg
}

// locateLoose finds a tool's name in a module's source: "NAME", 'NAME' or NAME: (a key).
func locateLoose(data []byte, name string) (line, col int) {
	best := -1
	for _, pat := range []string{`"` + name + `"`, `'` + name + `'`, name + ":"} {
		if i := bytes.Index(data, []byte(pat)); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return 0, 0
	}
	start := bytes.LastIndexByte(data[:best], '\n') + 1
	return 1 + bytes.Count(data[:best], []byte("\n")), utf8.RuneCount(data[start:best]) +
		1 // in characters, as report.Source counts
}

// relPath is path relative to the working directory when it is inside it, with forward
// slashes, as code scanning wants a file of the repository.
func relPath(path string) string {
	if filepath.IsAbs(path) {
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
				path = rel
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(path))
}

// specs maps each validator's name to the spec it was opened with (for replay commands).
func (f *runFlags) specs(vs []validator.Validator) map[string]string {
	out := map[string]string{}
	for i, v := range vs {
		spec := "reference"
		if i < len(f.validators) {
			spec = f.validators[i]
		}
		out[v.Name()] = registry.RedactSpec(spec)
	}
	return out
}

// servedBy is the spec of the validator that lists the tools (no --tools, a node: module or an
// MCP server), or "".
func (f *runFlags) servedBy(vs []validator.Validator) string {
	if len(f.tools) > 0 {
		return ""
	}
	for i, v := range vs {
		if _, ok := v.(validator.ToolSource); ok && i < len(f.validators) {
			return registry.RedactSpec(f.validators[i])
		}
	}
	return ""
}

// outputs are the run's reports: --format to stdout, --report to files, the command that repeats
// the run and a replay command per finding for HTML, the version for SARIF.
func (f *runFlags) outputs(vs []validator.Validator, args []string, seed uint64) outputs {
	return outputs{format: f.format, files: f.reports, render: report.RenderOptions{
		HTML: report.HTMLOptions{Command: repeatCommand("run", args, seed),
			Replay: replayCommand(f, f.specs(vs), f.reports.jsonPath())},
		SARIF: report.SARIFOptions{Version: moduleVersion(), File: f.sarifFile}}, captured: f.captured}
}
