package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestInvokedAs(t *testing.T) {
	for argv0, want := range map[string]string{
		"/tmp/go-build3141592/b001/exe/toolproof":                          "go run ./cmd/toolproof",
		`C:\Users\me\AppData\Local\Temp\go-build27\b001\exe\toolproof.exe`: "go run ./cmd/toolproof",
		"/home/me/proj/node_modules/toolproof-cli/bin/linux-x64/toolproof": "npx --no-install toolproof",
		"toolproof":                   "toolproof",
		"./toolproof":                 "./toolproof",
		"/home/me/go/bin/toolproof":   "/home/me/go/bin/toolproof",
		"/home/me/go-build/toolproof": "/home/me/go-build/toolproof", // a folder named so, not go's
		"":                            "toolproof",
	} {
		if got := invokedAs(argv0); got != want {
			t.Errorf("invokedAs(%q) = %q, want %q", argv0, got, want)
		}
	}
}

// TestWhatNextUsesTheProgram: the suggestions start the program the way it was started.
func TestWhatNextUsesTheProgram(t *testing.T) {
	var b bytes.Buffer
	writeNext(&b, "go run ./cmd/toolproof")
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "What next:" || len(lines) < 3 {
		t.Fatalf("writeNext: %q", b.String())
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "  go run ./cmd/toolproof ") {
			t.Errorf("a suggestion not started with go run ./cmd/toolproof: %q", l)
		}
	}
}
