package main

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	want := "toolproof " + moduleVersion() + " ("
	for _, args := range [][]string{{"version"}, {"--version"}, {"-v"}} {
		out := must(t, 0, args...).stdout
		if !strings.HasPrefix(out, want) || !strings.Contains(out, runtime.GOOS+"/"+runtime.GOARCH) {
			t.Errorf("toolproof %s: %q, want it to begin %q and name the platform", args[0], out, want)
		}
	}
	must(t, 2, "version", "extra")
	must(t, 2, "--version", "extra")
}

// stamp is the build information of a binary built with settings (key, value, ...).
func stamp(mainVersion string, settings ...string) *debug.BuildInfo {
	info := &debug.BuildInfo{Main: debug.Module{Path: "github.com/toolproof/toolproof", Version: mainVersion}}
	for i := 0; i+1 < len(settings); i += 2 {
		info.Settings = append(info.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return info
}

func TestIdentify(t *testing.T) {
	const rev = "fa846b9a1b2c3d4e5f60718293a4b5c6d7e8f901"
	for _, c := range []struct {
		name, set string
		info      *debug.BuildInfo
		want      buildID
	}{
		{"ldflags", "v0.0.0-e2e", stamp("(devel)"), buildID{version: "v0.0.0-e2e"}},
		{"ldflags in a checkout", "v0.4.0", stamp("(devel)", "vcs.revision", rev, "vcs.modified", "false"),
			buildID{version: "v0.4.0", commit: rev}},
		{"go install at a tag", "", stamp("v0.4.0"), buildID{version: "v0.4.0"}},
		{"go install at a pseudo-version", "", stamp("v0.0.0-20261202003937-fa846b9a1b2c"),
			buildID{version: "v0.0.0-20261202003937-fa846b9a1b2c", commit: "fa846b9a1b2c"}},
		{"a clone, clean", "", stamp("(devel)", "vcs", "git", "vcs.revision", rev, "vcs.modified", "false"),
			buildID{version: "devel-fa846b9a1b2c", commit: rev}},
		{"a clone, changed", "", stamp("", "vcs.revision", rev, "vcs.modified", "true"),
			buildID{version: "devel-fa846b9a1b2c+dirty", commit: rev, dirty: true}},
		{"a clone, stamped by Go", "",
			stamp("v0.0.0-20261202003937-fa846b9a1b2c+dirty", "vcs.revision", rev, "vcs.modified", "true"),
			buildID{version: "v0.0.0-20261202003937-fa846b9a1b2c+dirty", commit: rev, dirty: true}},
		{"no stamp", "", stamp("(devel)"), buildID{version: "devel"}},
		{"no build information", "", nil, buildID{version: "devel"}},
	} {
		if got := identify(c.set, c.info); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	line := identify("", stamp("", "vcs.revision", rev, "vcs.modified", "true")).String()
	if !strings.HasPrefix(line, "toolproof devel-fa846b9a1b2c+dirty (commit "+rev+" (modified), go") {
		t.Errorf("the version line: %q", line)
	}
}

// TestVersionOfABuild builds the command with -X main.version, as scripts/build-npm does, and
// reads what it says.
func TestVersionOfABuild(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "toolproof")
	if out, err := exec.Command(goBin, "build", "-ldflags", "-X main.version=v9.8.7-test", "-o", bin,
		".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, arg := range []string{"version", "--version", "-v"} {
		out, err := exec.Command(bin, arg).Output()
		if err != nil || !strings.HasPrefix(string(out), "toolproof v9.8.7-test (") {
			t.Errorf("toolproof %s: %q, %v", arg, out, err)
		}
	}
}
