package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is the release this binary is, set by scripts/build-npm with
// -ldflags "-X main.version=vX.Y.Z"; "" reads the module version from the build information,
// which `go install github.com/toolproof/toolproof/cmd/toolproof@VERSION` sets.
var version string

// moduleVersion is version, or the toolproof module's version in the build information:
// "(devel)" for a binary built in a checkout.
func moduleVersion() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// cmdVersion prints the version of toolproof, of the Go it was built with, and the platform.
func cmdVersion(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	fmt.Fprintf(stdout, "toolproof %s (%s, %s/%s)\n", moduleVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}
