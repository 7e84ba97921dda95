package python

import "embed"

// Files holds the adapters, at their paths in this folder.
//
//go:embed *.py
var Files embed.FS
