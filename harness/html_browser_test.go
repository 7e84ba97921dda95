package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/harness"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool/sample"
)

// chromium finds Debian's chromium (scripts/test installs it). Without it the test is skipped,
// and fails under TOOLPROOF_REQUIRE_NODE=1 or TOOLPROOF_REQUIRE_CHROMIUM=1, as CI runs.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TOOLPROOF_REQUIRE_NODE") == "1" || os.Getenv("TOOLPROOF_REQUIRE_CHROMIUM") == "1" {
		t.Fatal("chromium is not installed (apt-get install -y chromium); the HTML report is tested in it")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium)")
	return ""
}

// headless runs chromium on a file with args and returns its stdout.
func headless(t *testing.T, browser, file string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + t.TempDir()}, args...)
	url := "file://" + file
	if i := strings.IndexByte(file, '#'); i >= 0 {
		url = "file://" + file[:i] + file[i:]
	}
	cmd := exec.CommandContext(ctx, browser, append(all, url)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, errOut.String())
	}
	return out.Bytes()
}

// renderedRun runs gates with findings on part of the corpus and returns the reports.
func renderedRun(t *testing.T, gates ...validator.Validator) []*report.Report {
	t.Helper()
	tools := sample.Tools().Tools[:10]
	var out []*report.Report
	for _, g := range gates {
		rep, err := harness.Run(tools, g, harness.Options{Checks: 5, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rep)
	}
	return out
}

func brokenGate(t *testing.T, name string) validator.Validator {
	t.Helper()
	for _, b := range brokenValidators() {
		if b.name == name {
			return b.v
		}
	}
	t.Fatalf("no broken validator %q", name)
	return nil
}

// network is any URL a page could load from.
var network = regexp.MustCompile(`(?i)(src|href|action|srcset|poster|data)\s*=\s*["']?\s*(https?:)?//|` +
	`url\(\s*["']?(https?:)?//|@import`)

// TestHTMLInChromium renders the HTML reports of one validator and of a comparison in headless
// Chromium: the DOM after the script ran shows every finding id of the JSON report of the same
// run, the page loads nothing from the network (and says so in its Content-Security-Policy), the
// comparison's filters work, and its screenshot is a real picture.
func TestHTMLInChromium(t *testing.T) {
	browser := chromium(t)
	reports := renderedRun(t, brokenGate(t, "coerces numeric and boolean strings"),
		brokenGate(t, "drops unknown keys"), oracle.Reference{})
	for _, c := range []struct {
		name    string
		reports []*report.Report
	}{{"one", reports[:1]}, {"comparison", reports}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each starts Chromium, which is slow to start
			dir := t.TempDir()
			var page, js bytes.Buffer
			var err error
			if len(c.reports) == 1 {
				err = c.reports[0].WriteFormat(&page, "html", report.RenderOptions{})
				if err == nil {
					err = c.reports[0].Write(&js, "json")
				}
			} else {
				cmp := &report.Comparison{Reports: c.reports}
				err = cmp.WriteFormat(&page, "html", report.RenderOptions{})
				if err == nil {
					err = cmp.Write(&js, "json")
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "report.html")
			if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			var doc report.Document
			if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			ids := 0
			for _, r := range doc.Reports {
				for _, f := range r.Findings {
					ids++
					if !strings.Contains(page.String(), `<code class="id">`+f.ID+`</code>`) {
						t.Errorf("the page (without JavaScript) lacks finding %s (%s)", f.ID, f.String())
					}
				}
			}
			if ids == 0 {
				t.Fatal("the run has no finding to show")
			}
			if !strings.Contains(page.String(), `http-equiv="Content-Security-Policy" content="default-src 'none';`) {
				t.Error("the page has no Content-Security-Policy that forbids loading")
			}
			if m := network.FindString(page.String()); m != "" {
				t.Errorf("the page refers to the network: %q", m)
			}

			dom := string(headless(t, browser, file, "--dump-dom"))
			if !strings.Contains(dom, `data-filters="ready"`) {
				t.Fatalf("the page's script did not run in Chromium:\n%s", dom[:min(len(dom), 2000)])
			}
			for _, r := range doc.Reports {
				for _, f := range r.Findings {
					if !strings.Contains(dom, `<code class="id">`+f.ID+`</code>`) {
						t.Errorf("the DOM lacks finding %s", f.ID)
					}
				}
			}
			if m := network.FindString(dom); m != "" {
				t.Errorf("the DOM refers to the network: %q", m)
			}
			if strings.Contains(dom, `id="filters" hidden`) {
				t.Error("the filters stay hidden after the script ran")
			}
			if len(c.reports) > 1 {
				for _, r := range c.reports {
					if !strings.Contains(dom, ">"+r.Validator+"</a>") {
						t.Errorf("the heatmap lacks validator %s", r.Validator)
					}
				}
				cell := regexp.MustCompile(`<td style="[^"]*" title="[^"]*"><a href="#([^"]+)">`)
				for _, m := range cell.FindAllStringSubmatch(dom, -1) {
					if !strings.Contains(dom, `id="`+m[1]+`"`) {
						t.Errorf("a heatmap cell links to #%s, which the page lacks", m[1])
					}
				}
			}

			if len(c.reports) == 1 {
				return // the comparison's page has the same style sheet: one picture shows it paints
			}
			checkFilter(t, browser, file, doc)
			shot := filepath.Join(dir, "shot.png")
			headless(t, browser, file, "--screenshot="+shot, "--window-size=1200,900", "--hide-scrollbars")
			checkPicture(t, shot)
		})
	}
}

// checkFilter opens the page with one class chosen in its address (#filter:class=C) and checks
// that the script hid every finding of the other classes, and none of that class.
func checkFilter(t *testing.T, browser, file string, doc report.Document) {
	t.Helper()
	class := ""
	for _, r := range doc.Reports {
		for _, f := range r.Findings {
			if class == "" && f.Class != doc.Reports[0].Findings[0].Class {
				class = string(f.Class)
			}
		}
	}
	if class == "" {
		t.Fatal("the comparison's findings are all of one class: nothing to filter")
	}
	// The second address has malformed parts before the good one (a name no selector takes, an
	// empty name, escapes that do not decode): they are left out and the filter still works.
	for _, fragment := range []string{"#filter:class=" + class,
		"#filter:class]=x;=;x=%E0%A4%A;%E0%A4%A;class=%E0%A4%A," + class} {
		dom := string(headless(t, browser, file+fragment, "--dump-dom"))
		if !strings.Contains(dom, `data-filters="ready"`) {
			t.Fatalf("%s: the page's script did not finish", fragment)
		}
		articles := regexp.MustCompile(`<article class="finding( hidden-by-filter)?" id="[^"]*" `+
			`data-class="([^"]*)"`).FindAllStringSubmatch(dom, -1)
		if len(articles) == 0 {
			t.Fatalf("%s: no findings in the filtered DOM", fragment)
		}
		for _, a := range articles {
			if hidden := a[1] != ""; hidden == (a[2] == class) {
				t.Errorf("%s: filtered to %s, a finding of %s is hidden: %v", fragment, class, a[2], hidden)
			}
		}
	}
}

// checkPicture fails unless the file is a PNG of the window's size with more than a few colours
// (a blank or broken page is one or two).
func checkPicture(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 900 {
		t.Errorf("the screenshot is %v, want 1200x900", b)
	}
	colours := map[[4]uint32]bool{}
	var at image.Point
	for at.Y = 0; at.Y < img.Bounds().Dy(); at.Y += 3 {
		for at.X = 0; at.X < img.Bounds().Dx(); at.X += 3 {
			r, g, b, a := img.At(at.X, at.Y).RGBA()
			colours[[4]uint32{r, g, b, a}] = true
		}
	}
	// Red (failed) and green (held) grid cells, the status badges, text: many colours.
	if len(colours) < 20 {
		t.Errorf("the screenshot has %d colours: a blank page?", len(colours))
	}
	red := false
	for c := range colours {
		if c[0]>>8 > 200 && c[1]>>8 < 120 && c[2]>>8 < 120 {
			red = true
		}
	}
	if !red {
		t.Error("the screenshot shows nothing red, though the run failed (the FAIL badge)")
	}
}
