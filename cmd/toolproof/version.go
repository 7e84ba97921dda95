package main

import (
	"fmt"
	"io"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
)

// version is the release this binary is, set by scripts/build-npm with
// -ldflags "-X main.version=vX.Y.Z"; "" reads the version from the build information.
var version string

// develPrefix begins the version of a binary built in a checkout rather than installed at a
// module version: devel-COMMIT, +dirty when the checkout had changes.
const develPrefix = "devel"

// buildID is what a binary says it is: its version and the commit it was built from ("" when
// the build information does not say).
type buildID struct {
	version, commit string
	dirty           bool
}

// pseudoCommit matches a pseudo-version (vX.Y.Z-[pre.]0.TIMESTAMP-COMMIT or vX.0.0-TIMESTAMP-COMMIT);
// the group is the commit's first 12 hex digits.
var pseudoCommit = regexp.MustCompile(`^v\d+\.\d+\.\d+-(?:[0-9A-Za-z.-]+\.)?\d{14}-([0-9a-f]{12})(?:\+[0-9A-Za-z.]+)?$`)

// identify reads a binary's version and commit: set is the -X main.version value, info the
// build information (nil when the binary has none). The version is set, else the module's
// version (a tag or a pseudo-version, after `go install ...@VERSION`), else devel-COMMIT[+dirty]
// from the VCS stamp of a build in a checkout, else devel. The commit is the VCS stamp's,
// else the pseudo-version's.
func identify(set string, info *debug.BuildInfo) buildID {
	var id buildID
	if info != nil {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				id.commit = s.Value
			case "vcs.modified":
				id.dirty = s.Value == "true"
			}
		}
	}
	switch {
	case set != "":
		id.version = set
	case info != nil && info.Main.Version != "" && info.Main.Version != "(devel)":
		id.version = info.Main.Version
	case id.commit != "":
		id.version = develPrefix + "-" + short(id.commit)
		if id.dirty {
			id.version += "+dirty"
		}
	default:
		id.version = develPrefix
	}
	if m := pseudoCommit.FindStringSubmatch(id.version); m != nil && id.commit == "" {
		id.commit = m[1]
	}
	return id
}

// short is a commit's first 12 hex digits, as Go's pseudo-versions give it.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// thisBuild is this binary's buildID.
func thisBuild() buildID {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = nil
	}
	return identify(version, info)
}

// moduleVersion is this binary's version: a release, a pseudo-version, or devel-COMMIT[+dirty]
// for a binary built in a checkout.
func moduleVersion() string { return thisBuild().version }

// String is the line `toolproof version` prints: the version, the commit when known, the Go and
// the platform.
func (id buildID) String() string {
	parts := []string{}
	if id.commit != "" {
		c := "commit " + id.commit
		if id.dirty {
			c += " (modified)"
		}
		parts = append(parts, c)
	}
	parts = append(parts, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	return fmt.Sprintf("toolproof %s (%s)", id.version, strings.Join(parts, ", "))
}

// cmdVersion prints the version of toolproof, its commit, the Go it was built with, and the platform.
func cmdVersion(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintln(stdout, thisBuild())
	return nil
}
