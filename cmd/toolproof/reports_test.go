package main

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// --report writes more reports of the same run; the SARIF one locates each finding at the keyword
// of its path's schema in the tool file, and the HTML one gives for each finding a replay command
// that repeats it.
func TestReportFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	args := []string{"run", "--validator", execSpec(t), "--seed", "2", "--checks", "10",
		"--tools", corpusTool("read"), "--tools", corpusTool("bash"), "--format", "text"}
	for _, f := range []string{"json", "html", "sarif", "badge", "markdown", "junit"} {
		files[f] = filepath.Join(dir, "out", "report."+f)
		args = append(args, "--report", f+"="+files[f])
	}
	r := must(t, 1, args...)
	if !strings.HasPrefix(r.stdout, "FAIL  validator coerce 0") {
		t.Errorf("stdout is not the text report:\n%s", clip(r.stdout))
	}
	read := func(f string) string {
		data, err := os.ReadFile(files[f])
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	doc := decodeDocument(t, read("json"))
	rep := doc.Reports[0]
	if len(rep.Findings) == 0 {
		t.Fatal("no findings")
	}
	// The JSON report written beside is what --format json writes.
	again := must(t, 1, "run", "--validator", execSpec(t), "--seed", "2", "--checks", "10",
		"--tools", corpusTool("read"), "--tools", corpusTool("bash"), "--format", "json")
	if again.stdout != read("json") {
		t.Error("--report json=FILE differs from --format json")
	}

	var sarif struct {
		Runs []struct {
			Results []sarifResult
		}
	}
	if err := json.Unmarshal([]byte(read("sarif")), &sarif); err != nil {
		t.Fatal(err)
	}
	if len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != len(rep.Findings) {
		t.Fatalf("SARIF: %d runs, want one with %d results", len(sarif.Runs), len(rep.Findings))
	}
	for _, res := range sarif.Runs[0].Results {
		loc := res.Locations[0].PhysicalLocation
		name := res.Properties["tool"].(string)
		if loc.ArtifactLocation.URI != filepath.ToSlash(corpusTool(name)) {
			t.Errorf("%s: located in %q, want %q", res.Message.Text, loc.ArtifactLocation.URI, corpusTool(name))
			continue
		}
		data, err := os.ReadFile(corpusTool(name))
		if err != nil {
			t.Fatal(err)
		}
		// The corpus tools are flat: the keyword is the first one after the property's name.
		var f report.Finding
		for _, g := range rep.Findings {
			if g.ID == res.Properties["id"] {
				f = g
			}
		}
		if f.Keyword == "" || res.Properties["schema"] != "/properties"+f.Path+"/"+f.Keyword {
			t.Errorf("%s: schema place %v for path %s keyword %s", res.Message.Text,
				res.Properties["schema"], f.Path, f.Keyword)
			continue
		}
		text := string(data)
		prop := strings.Index(text, `"`+strings.TrimPrefix(f.Path, "/")+`": {`)
		want := prop + strings.Index(text[prop:], `"`+f.Keyword+`"`)
		line := 1 + strings.Count(text[:want], "\n")
		col := want - strings.LastIndex(text[:want], "\n")
		if prop < 0 || loc.Region.StartLine != line || loc.Region.StartColumn != col {
			t.Errorf("%s: at line %d column %d, want %d:%d, the %q of %s", res.Message.Text, loc.Region.StartLine,
				loc.Region.StartColumn, line, col, f.Keyword, f.Path)
		}
		if src := rep.Sources[name]; !strings.HasPrefix(strings.Split(text, "\n")[src.Line-1][src.Column-1:],
			`"name": "`+name+`"`) {
			t.Errorf("%s: the tool's source %+v is not its name", name, src)
		}
	}

	var badge report.Badge
	if err := json.Unmarshal([]byte(read("badge")), &badge); err != nil || badge.SchemaVersion != 1 ||
		!strings.HasSuffix(badge.Message, "classes hold") {
		t.Errorf("badge %s: %v", read("badge"), err)
	}

	page := read("html")
	cmds := regexp.MustCompile(`<pre class="replay">([^<]*)</pre>`).FindAllStringSubmatch(page, -1)
	if len(cmds) != len(rep.Findings) {
		t.Fatalf("%d replay commands for %d findings", len(cmds), len(rep.Findings))
	}
	f := rep.Findings[0]
	want := "toolproof replay " + files["json"] + " --id " + f.ID + " --validator " + shellWord(execSpec(t)) +
		" --tools " + corpusTool("read") + " --tools " + corpusTool("bash")
	if got := html.UnescapeString(cmds[0][1]); got != want {
		t.Errorf("replay command\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(page, "toolproof run --validator") || !strings.Contains(page, "--seed 2") ||
		strings.Contains(page, "--report") {
		t.Error("the page lacks the command that repeats the run (without --report)")
	}
	// The replay command repeats the finding.
	rr := must(t, 1, "replay", files["json"], "--id", f.ID, "--validator", execSpec(t),
		"--tools", corpusTool("read"), "--tools", corpusTool("bash"), "--format", "json")
	got := decodeDocument(t, rr.stdout).Reports[0].Findings
	if len(got) != 1 || got[0].ID != f.ID || got[0].Kind != f.Kind {
		t.Errorf("replaying %s gave %v", f.ID, got)
	}
	must(t, 2, "replay", files["json"], "--id", "nosuchid", "--validator", execSpec(t), "--tools", corpusTool("read"))
	if r := cli(t, "run", "--tools", corpusTool("read"), "--report", "pdf=x.pdf"); r.code != 2 ||
		!strings.Contains(r.stderr, "unknown format") {
		t.Errorf("--report pdf=x.pdf: exit %d, %s", r.code, r.stderr)
	}
}

// A tool file's tools are located at their "name", renamed duplicates at their own definition:
// the harness does it with the files toolFiles gives it.
func TestSourcesOfTools(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "tools.json",
		"[\n {\"name\": \"a\", \"parameters\": {\"type\": \"object\"}},\n {\"name\": \"a\", \"parameters\": "+
			"{\"type\": \"object\"}}\n]\n")
	set, err := tool.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rejectAll := validator.Func("reject-all", func(tool.Tool) (func([]byte) (any, error), error) {
		return func([]byte) (any,
			error) {
			return nil, &validator.Error{Issues: []validator.Issue{{Message: "no"}}}
		}, nil
	})
	rep, err := harness.Run(set.Tools, rejectAll, harness.Options{Checks: 2, Seed: 1, Files: toolFiles("", set.Texts)})
	if err != nil {
		t.Fatal(err)
	}
	for name, line := range map[string]int{"a": 2, "a__2": 3} {
		if s := rep.Sources[name]; s.Line != line || s.Column != 3 || s.File != relPath(path) {
			t.Errorf("%s: %+v, want line %d column 3 of %s", name, s, line, path)
		}
	}
}

// A tool a node: module lists is located in the module, at its name; an MCP server's, in the
// first file of its command.
func TestSourcesOfServedTools(t *testing.T) {
	dir := t.TempDir()
	mod := writeFile(t, dir, "tools.mjs",
		"import { z } from \"zod\";\nexport const tools = [\n  { name: \"read_file\", schema: z.object({}) },\n];\n")
	reps := []*report.Report{{Findings: []report.Finding{{}}}}
	reps[0].Findings[0].Tool = "read_file"
	tools := []tool.Tool{{Name: "read_file", Source: "validator node:" + mod + ":tools[0]"}}
	sources(reps, tools, "node:"+mod)
	if s := reps[0].Sources["read_file"]; s.File != relPath(mod) || s.Line != 3 || s.Column != 11 ||
		s.Served != "node:"+mod {
		t.Errorf("node: %+v, want %s line 3 column 11", s, mod)
	}
	reps[0].Sources = nil
	sources(reps, tools, "mcp:node "+mod+" --stdio")
	if s := reps[0].Sources["read_file"]; s.File != relPath(mod) || s.Line != 3 ||
		s.Served != "mcp:node "+mod+" --stdio" {
		t.Errorf("mcp: %+v, want %s line 3", s, mod)
	}
	reps[0].Sources = nil
	sources(reps, tools, "mcp:npx -y some-server")
	if s := reps[0].Sources["read_file"]; s.File != "" || s.Served == "" {
		t.Errorf("mcp without a file: %+v, want only the server", s)
	}
}

// A served tool's column counts characters, as a tool file's does: a comment with accents before
// the name on its line moves it by one per character.
func TestLocateLooseColumnInCharacters(t *testing.T) {
	data := []byte("export const tools = [\n  /* é😀 */ { name: \"read_file\" },\n];\n")
	if line, col := locateLoose(data, "read_file"); line != 2 || col != 20 {
		t.Errorf("locateLoose: %d:%d, want 2:20 (characters; the byte column is 24)", line, col)
	}
}
