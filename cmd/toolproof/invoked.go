package main

import (
	"regexp"
	"strings"
)

// goBuildDir matches the temporary folder go run and go test build in: go-buildNNN/bNNN/.
var goBuildDir = regexp.MustCompile(`(^|[/\\])go-build\d+[/\\]b\d+[/\\]`)

// invokedAs is how to start this program again, for the commands it suggests, from argv0 (os.Args[0]):
// `go run ./cmd/toolproof` for a binary go run built in a go-build folder, `npx --no-install toolproof`
// for the npm package's binary, else argv0 as it was given.
func invokedAs(argv0 string) string {
	if goBuildDir.MatchString(argv0) {
		return "go run ./cmd/toolproof"
	}
	parts := strings.FieldsFunc(argv0, func(r rune) bool { return r == '/' || r == '\\' })
	for i, p := range parts {
		if p == "node_modules" && i+1 < len(parts) && parts[i+1] == "toolproof-cli" {
			return "npx --no-install toolproof"
		}
	}
	if argv0 == "" {
		return "toolproof"
	}
	return argv0
}
