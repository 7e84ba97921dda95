package node

import "embed"

// Files holds adapters/, package.json and package-lock.json, at their paths in this folder.
//
//go:embed adapters package.json package-lock.json
var Files embed.FS
