package main

import (
	"encoding/json"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolproof/toolproof/internal/announce"
)

// fakeMCP builds the fake MCP server of validator/mcp and returns the --validator value that
// runs it in mode.
func fakeMCP(t *testing.T, mode string) string {
	t.Helper()
	bin := goBuild(t, "fake-mcp", "../../validator/mcp/internal/fakeserver/cmd/toolproof-fake-mcp")
	return "mcp:'" + bin + "' " + mode
}

// lenientClasses are the classes a run against the lenient fake server needs: the two it misses
// and one it rejects (with its messages, which the server may make quote a header). Each other
// class would only add findings to shrink, over a transport.
const lenientClasses = "stringified_type,hallucinated_key,wrong_type"

func TestRunMCP(t *testing.T) {
	args := []string{"run", "--validator", fakeMCP(t, "lenient"), "--checks", "10", "--seed", "1", "--format", "json",
		"--mutators", lenientClasses}
	r := decodeReport(t, must(t, 1, args...).stdout)
	found := map[string]bool{}
	for _, f := range r.Findings {
		found[f.Class+" "+f.Kind] = true
	}
	if !found["stringified_type missed"] || !found["hallucinated_key missed"] || r.Tools != 2 {
		t.Errorf("the lenient server's report: %d tools, findings %v", r.Tools, r.Findings)
	}
	var doc struct{ Reports []struct{ Notes []string } }
	json.Unmarshal([]byte(cli(t, args...).stdout), &doc)
	if len(doc.Reports) != 1 || !strings.Contains(strings.Join(doc.Reports[0].Notes, "\n"), "answers by form") {
		t.Errorf("no note on the forms of the answers: %+v", doc.Reports)
	}
	must(t, 0, "run", "--validator", fakeMCP(t, "correct"), "--checks", "10", "--seed", "1", "--tool", "set_alarm")
	if r := must(t, 2, "run", "--validator", fakeMCP(t, "correct"), "--reject-pattern",
		"("); !strings.Contains(r.stderr, "--reject-pattern") {
		t.Errorf("a bad pattern: %s", r.stderr)
	}
}

// fakeMCPHTTP starts the fake MCP server over Streamable HTTP on loopback with the given flags
// and returns its URL.
func fakeMCPHTTP(t *testing.T, flags ...string) string {
	t.Helper()
	fakeMCP(t, "correct") // builds the binary
	return announce.URL(t,
		exec.Command(filepath.Join(binDir, "fake-mcp"), append([]string{"-http", "127.0.0.1:0"}, flags...)...))
}

// TestRunMCPHTTP: mcp:URL with a bearer token read from the environment catches the lenient
// server; the token appears in no output of any format, though the server quotes it in its
// errors; a wrong or missing token is exit 2 naming the status.
func TestRunMCPHTTP(t *testing.T) {
	const token = "tpk-cli-5e8d0a4471"
	t.Setenv("TP_MCP_TOKEN", token)
	url := fakeMCPHTTP(t, "-token", token, "-sse", "-legacy", "-echo-auth", "lenient")
	// One run writes every format: the text report on stdout, the others to files.
	dir := t.TempDir()
	args := []string{"run", "--validator", "mcp:" + url, "--header", "Authorization: Bearer $TP_MCP_TOKEN",
		"--checks", "10", "--seed", "1", "--format", "text", "--mutators", lenientClasses}
	files := map[string]string{}
	for _, format := range []string{"json", "markdown", "junit", "sarif", "html"} {
		files[format] = filepath.Join(dir, "report."+format)
		args = append(args, "--report", format+"="+files[format])
	}
	r := must(t, 1, args...)
	var all strings.Builder
	all.WriteString(r.stdout + r.stderr)
	for _, f := range files {
		all.WriteString(readFile(t, f))
	}
	rep := decodeReport(t, readFile(t, files["json"]))
	found := map[string]bool{}
	for _, f := range rep.Findings {
		found[f.Class+" "+f.Kind] = true
	}
	if !found["stringified_type missed"] || !found["hallucinated_key missed"] {
		t.Errorf("findings %v", rep.Findings)
	}
	if strings.Contains(all.String(), token) {
		t.Fatal("the header value appears in the output")
	}
	if !strings.Contains(all.String(), "[header value]") {
		t.Error("the server's echo of the header was not seen (the test would not catch a leak)")
	}
	for _, h := range [][]string{{}, {"--header", "Authorization: Bearer wrong-" + token}} {
		args := append([]string{"run", "--validator", "mcp:" + url, "--checks", "5"}, h...)
		r := must(t, 2, args...)
		if !strings.Contains(r.stderr, "401 Unauthorized") || strings.Contains(r.stdout+r.stderr, token) {
			t.Errorf("%v: stderr %s", h, r.stderr)
		}
	}
	r = must(t, 2, "run", "--validator", "mcp:"+url, "--header", "Authorization: $TP_NO_SUCH_VARIABLE")
	if !strings.Contains(r.stderr, "TP_NO_SUCH_VARIABLE") {
		t.Errorf("a missing variable: %s", r.stderr)
	}
	if r := must(t, 2, "run", "--validator", "mcp:"+url, "--header",
		"Authorization Bearer "+token); strings.Contains(r.stderr, token) {
		t.Errorf("a bad --header shows its value: %s", r.stderr)
	}
}

// TestRunMCPHTTPSecretsRecorded: a literal bearer token in --header and a URL with a password
// and an api_key reach none of the reports' recordings of the invocation (HTML's repeat and
// replay commands, JSON sources[].served, SARIF fullyQualifiedName), each redacted there.
func TestRunMCPHTTPSecretsRecorded(t *testing.T) {
	const token, password, key = "tpk-lit-91c0d2", "pw-3e71a0", "ak-55f0e2"
	url := strings.Replace(fakeMCPHTTP(t, "-token", token, "-echo-auth", "lenient"), "://", "://ops:"+password+"@", 1) +
		"?api_key=" + key
	dir := t.TempDir()
	files := map[string]string{}
	args := []string{"run", "--validator", "mcp:" + url, "--header", "Authorization: Bearer " + token,
		"--header=X-Tenant: ab", "--checks", "5", "--seed", "1", "--format", "text", "--mutators", lenientClasses}
	for _, f := range []string{"json", "html", "sarif", "markdown", "junit"} {
		files[f] = filepath.Join(dir, "report."+f)
		args = append(args, "--report", f+"="+files[f])
	}
	r := must(t, 1, args...)
	all := r.stdout + r.stderr
	for _, f := range files {
		all += readFile(t, f)
	}
	for _, secret := range []string{token, password, key} {
		if strings.Contains(all, secret) {
			t.Errorf("%s appears in an output", secret)
		}
	}
	page := html.UnescapeString(readFile(t, files["html"]))
	for _, want := range []string{"--header 'Authorization: Bearer <redacted>'", "'--header=X-Tenant: <redacted>'",
		"mcp:http://ops:<redacted>@127.0.0.1:", "/mcp?api_key=<redacted>'"} {
		if !strings.Contains(page, want) {
			t.Errorf("the HTML report lacks %q:\n%s", want, regexp.MustCompile(`toolproof run[^\n]*`).FindString(page))
		}
	}
	doc := decodeDocument(t, readFile(t, files["json"]))
	for name, src := range doc.Reports[0].Sources {
		if !strings.HasPrefix(src.Served, "mcp:http://ops:<redacted>@") ||
			!strings.HasSuffix(src.Served, "?api_key=<redacted>") {
			t.Errorf("%s: served %q", name, src.Served)
		}
	}
	if len(doc.Reports[0].Sources) == 0 ||
		!strings.Contains(readFile(t, files["sarif"]), `"fullyQualifiedName": "mcp:http://ops:<redacted>@`) {
		t.Errorf("no source, or SARIF names the server otherwise: %+v\n%s", doc.Reports[0].Sources,
			regexp.MustCompile(`"fullyQualifiedName[^\n]*`).FindString(readFile(t, files["sarif"])))
	}
}

// TestRunMCPHTTPStatusLineScrubbed: a server whose status lines repeat the Authorization header
// (a 500 reason phrase on every call of one tool, a 401 reason phrase at start) gets its
// crashes reported, named by their status, and the token reaches no output: stderr, text,
// JSON, HTML, Markdown, JUnit, SARIF.
func TestRunMCPHTTPStatusLineScrubbed(t *testing.T) {
	const token = "tpk-status-2b9e71"
	url := fakeMCPHTTP(t, "-token", token, "-echo-auth", "-fail-tool", "send_note", "correct")
	dir := t.TempDir()
	args := []string{"run", "--validator", "mcp:" + url, "--header", "Authorization: Bearer " + token,
		"--checks", "5", "--seed", "1", "--format", "text"}
	var files []string
	for _, f := range []string{"json", "html", "sarif", "markdown", "junit"} {
		files = append(files, filepath.Join(dir, "report."+f))
		args = append(args, "--report", f+"="+files[len(files)-1])
	}
	r := must(t, 1, args...)
	all := r.stdout + r.stderr
	for _, f := range files {
		all += readFile(t, f)
	}
	if strings.Contains(all, token) {
		t.Errorf("the token appears in an output")
	}
	if !strings.Contains(r.stdout, "crash") || !strings.Contains(all, "500 Internal Error [header value]") {
		t.Errorf("no crash named by its scrubbed status line:\n%s", clip(r.stdout))
	}
	r = must(t, 2, "run", "--validator", "mcp:"+url, "--header", "Authorization: Bearer wrong-"+token, "--checks", "5")
	if strings.Contains(r.stdout+r.stderr, token) || !strings.Contains(r.stderr, "401 Unauthorized [header value]") {
		t.Errorf("a 401 whose reason repeats the token: stderr %s", r.stderr)
	}
}

// TestRunMCPHTTPRefusedMidRun: a server that answers 401 after 100 calls (a token revoked
// during the run) leaves a report of those 100 calls in every format and every --report file,
// marked interrupted with the status and the server named and the token in no output; exit 3,
// and stderr says to check the credentials.
func TestRunMCPHTTPRefusedMidRun(t *testing.T) {
	const token = "tpk-revoked-7c41e0"
	url := fakeMCPHTTP(t, "-token", token, "-echo-auth", "-deny-after", "100", "correct")
	dir := t.TempDir()
	args := []string{"run", "--validator", "mcp:" + url, "--header", "Authorization: Bearer " + token,
		"--checks", "50", "--seed", "1", "--format", "json"}
	files := map[string]string{}
	for _, f := range []string{"text", "html", "sarif", "markdown", "junit"} {
		files[f] = filepath.Join(dir, "report."+f)
		args = append(args, "--report", f+"="+files[f])
	}
	r := must(t, exitInterrupted, args...)
	rep := decodeDocument(t, r.stdout).Reports[0]
	if rep.Cases != 100 || rep.Passed || !strings.Contains(rep.Interrupted, "401 Unauthorized") ||
		!strings.Contains(rep.Interrupted, strings.TrimPrefix(url, "http://")) {
		t.Errorf("the JSON report: %d cases, passed %v, interrupted %q", rep.Cases, rep.Passed, rep.Interrupted)
	}
	all := r.stdout + r.stderr
	for f, path := range files {
		text := readFile(t, path)
		if !strings.Contains(text, "100 cases") && (f == "text" || f == "markdown") {
			t.Errorf("%s: the report does not count the 100 cases checked:\n%s", f, clip(text))
		}
		all += text
	}
	if !strings.HasPrefix(readFile(t, files["text"]), "INTERRUPTED") {
		t.Errorf("the text report is not marked interrupted:\n%s", clip(readFile(t, files["text"])))
	}
	if strings.Contains(all, token) {
		t.Error("the token appears in an output")
	}
	if !strings.Contains(r.stderr, "401 Unauthorized") || !strings.Contains(r.stderr, "--header") {
		t.Errorf("stderr does not say what refused and what to check: %s", r.stderr)
	}
}

// TestRunMCPHTTPLag: a server that answers each POST with the previous call's answer gives no
// verdict on the gate: the run ends as the server's fault, exit 2, the report written with no
// finding, the reason on stderr.
func TestRunMCPHTTPLag(t *testing.T) {
	url := fakeMCPHTTP(t, "-lag", "correct")
	r := must(t, 2, "run", "--validator", "mcp:"+url, "--checks", "20", "--seed", "1", "--format", "json")
	if rep := decodeReport(t, r.stdout); len(rep.Findings) != 0 {
		t.Errorf("findings %v", rep.Findings)
	}
	if !strings.Contains(r.stderr, "cannot be matched to the calls") ||
		!strings.Contains(r.stderr, "complete up to there") {
		t.Errorf("stderr %s", clip(r.stderr))
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestRunMCPHTTPGone: a server that goes away mid-run: the report is complete (every case has a
// verdict, the calls after it not sent), a note says so, and the exit status is 2.
func TestRunMCPHTTPGone(t *testing.T) {
	t.Parallel()
	url := fakeMCPHTTP(t, "-gone-after", "30", "correct")
	r := must(t, 2, "run", "--validator", "mcp:"+url, "--checks", "10", "--seed", "1", "--format", "json")
	rep := decodeReport(t, r.stdout)
	if rep.Tools != 2 || !strings.Contains(r.stderr, "the server went away") ||
		!strings.Contains(r.stderr, "complete up to there") {
		t.Fatalf("tools %d, stderr %s", rep.Tools, r.stderr)
	}
	var doc struct{ Reports []struct{ Notes []string } }
	json.Unmarshal([]byte(r.stdout), &doc)
	if !strings.Contains(strings.Join(doc.Reports[0].Notes, "\n"), "calls were not sent") {
		t.Errorf("notes %v", doc.Reports[0].Notes)
	}
}
