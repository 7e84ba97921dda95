package registry

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// Listed returns the entries this install can run and, for the ones it cannot, one line each saying
// how to get them. The Go zoo is listed only where it runs: TOOLPROOF_ROOT names a checkout to
// build it from (with the go command on PATH), or an earlier run installed it into the cache.
func (o *Opener) Listed() ([]Entry, []string) {
	var zoo []string
	var entries []Entry
	for _, e := range Entries() {
		if e.Kind == "go-zoo" {
			zoo = append(zoo, e.Name)
		}
	}
	how := o.zooMissing()
	for _, e := range Entries() {
		if e.Kind == "go-zoo" && how != "" {
			continue
		}
		entries = append(entries, e)
	}
	if how == "" {
		return entries, nil
	}
	return entries, []string{fmt.Sprintf("the Go validator zoo (%s) does not run from this install: %s",
		strings.Join(zoo, ", "), how)}
}

// zooMissing is "" when the zoo runs from this install, else what to do to get it.
func (o *Opener) zooMissing() string {
	clone := "set TOOLPROOF_ROOT to a clone of toolproof, and it is built from its validator/zoo with go build"
	if _, err := exec.LookPath("go"); err != nil {
		return "it is built from source and the go command is not on PATH: install Go (https://go.dev/dl), then " +
			clone
	}
	if o.Root != "" {
		return ""
	}
	version := o.Version
	if version == "" {
		version = moduleVersion()
	}
	query, err := zooQuery(version)
	if err != nil {
		return clone
	}
	cache, err := o.cacheRoot()
	if err != nil {
		return clone
	}
	exe := "toolproof-zoo"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if _, err := os.Stat(filepath.Join(cache, "zoo", query, exe)); err == nil {
		return ""
	}
	return clone + "; or `toolproof run --validator json-struct` installs it with " +
		"`go install " + zooCommand + "@" + query + "`, which needs that module on your GOPROXY"
}
