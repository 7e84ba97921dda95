package main

import (
	"runtime"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	out := must(t, 0, "version").stdout
	if !strings.HasPrefix(out, "toolproof ") || !strings.Contains(out, runtime.GOOS+"/"+runtime.GOARCH) {
		t.Errorf("toolproof version: %q", out)
	}
	must(t, 2, "version", "extra")
}
