package registry

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/toolproof/toolproof/validator"
)

// zooCommand is the zoo's command, in its own module (validator/zoo/go.mod) so that its validators'
// dependencies stay out of toolproof's.
const zooCommand = "github.com/toolproof/toolproof/validator/zoo/cmd/toolproof-zoo"

// zoo builds the Go validator zoo once and starts its command on name. A failed build fails
// every zoo validator, each error naming the validator it was asked for.
func (o *Opener) zoo(name string) (validator.Validator, error) {
	o.zooOnce.Do(func() { o.zooBin, o.zooErr = o.buildZoo(name) })
	if o.zooErr != nil {
		return nil, fmt.Errorf("validator %s is in the Go validator zoo: %v", name, o.zooErr)
	}
	return o.start([]string{o.zooBin, name})
}

// buildZoo builds the zoo from Root (go build, as a developer's checkout has it) or else installs
// its command at this toolproof's version from the module proxy (go install), into the cache.
// Its errors name no validator (zoo adds the one asked for); name is for the progress line.
func (o *Opener) buildZoo(name string) (string, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("it is built from source, and the go command is not on PATH: " +
			"install Go (https://go.dev/dl) or choose a validator `toolproof validators` lists as node, python or " +
			"builtin")
	}
	cache, err := o.cacheRoot()
	if err != nil {
		return "", err
	}
	exe := "toolproof-zoo"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if o.Root != "" {
		bin := filepath.Join(cache, exe)
		cmd := exec.Command(goCmd, "build", "-o", bin, "./cmd/toolproof-zoo")
		cmd.Dir = filepath.Join(o.Root, "validator", "zoo")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("building the zoo in %s (go build): %v\n%s", cmd.Dir, err, out)
		}
		return bin, nil
	}
	version := o.Version
	if version == "" {
		version = moduleVersion()
	}
	query, err := zooQuery(version)
	if err != nil {
		return "", fmt.Errorf("this toolproof installs it with `go install %s@VERSION` at its own version: %v",
			zooCommand, err)
	}
	return o.installZoo(goCmd, filepath.Join(cache, "zoo"), exe, query, name)
}

// installZoo runs `go install zooCommand@query` into dir/QUERY (through a temporary folder
// renamed into place) unless an earlier run did, and returns the binary.
func (o *Opener) installZoo(goCmd, dir, exe, query, name string) (string, error) {
	dst := filepath.Join(dir, query)
	bin := filepath.Join(dst, exe)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("the toolproof cache: %v", err)
	}
	tmp, err := os.MkdirTemp(dir, ".install-")
	if err != nil {
		return "", fmt.Errorf("the toolproof cache: %v", err)
	}
	defer os.RemoveAll(tmp)
	if o.Progress != nil {
		fmt.Fprintf(o.Progress,
			"toolproof: building the Go validator zoo for %s: go install %s@%s (once for this version of toolproof)\n",
			name, zooCommand, query)
	}
	cmd := exec.Command(goCmd, "install", zooCommand+"@"+query)
	cmd.Dir = tmp // no go.mod nor go.work of the user's applies
	cmd.Env = append(os.Environ(), "GOBIN="+tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("`go install %s@%s` failed (%v):\n%s\n"+
			"the zoo's module must be reachable through GOPROXY at the version of this toolproof; "+
			"to build it from a toolproof checkout instead, set TOOLPROOF_ROOT to that checkout",
			zooCommand, query, err, tail(out, 20))
	}
	if err := os.Rename(tmp, dst); err != nil {
		if _, statErr := os.Stat(bin); statErr != nil { // not another run's install: a real failure
			return "", fmt.Errorf("installing it into %s: %v", dst, err)
		}
	}
	return bin, nil
}

// moduleVersion is the version of the toolproof module this binary was built from: a release
// tag or a pseudo-version after `go install ...@VERSION`, "(devel)" when built in a checkout.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	if info.Main.Path == "github.com/toolproof/toolproof" {
		return info.Main.Version
	}
	for _, d := range info.Deps { // toolproof as a library of another program
		if d.Path == "github.com/toolproof/toolproof" {
			return d.Version
		}
	}
	return ""
}

// pseudo matches a pseudo-version (vX.Y.Z-[pre.]0.TIMESTAMP-COMMIT or vX.0.0-TIMESTAMP-COMMIT);
// the group is the commit.
var pseudo = regexp.MustCompile(`^v\d+\.\d+\.\d+-(?:[0-9A-Za-z.-]+\.)?\d{14}-([0-9a-f]{12})(?:\+incompatible)?$`)

// release matches a release version, vX.Y.Z with an optional pre-release.
var release = regexp.MustCompile(`^v\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$`)

// zooQuery is the version to `go install` the zoo at, for toolproof at version: the same tag
// for a release (the zoo is tagged validator/zoo/vX.Y.Z with it), the same commit for a pseudo-version
// (its zoo module at that commit), and an error when the binary was built from a checkout.
func zooQuery(version string) (string, error) {
	switch {
	case version == "" || version == "(devel)":
		return "", fmt.Errorf("this binary was built from a checkout (its module version is %q), so there is no "+
			"version to install: "+
			"set TOOLPROOF_ROOT to that checkout to build the zoo from its source", version)
	case strings.Contains(version, "+dirty"):
		return "", fmt.Errorf("this binary was built from a modified checkout (%s): set TOOLPROOF_ROOT to that "+
			"checkout to build the zoo from its source", version)
	}
	if m := pseudo.FindStringSubmatch(version); m != nil {
		return m[1], nil
	}
	if release.MatchString(version) {
		return version, nil
	}
	return "", fmt.Errorf("cannot read the module version %q", version)
}

// tail is the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
