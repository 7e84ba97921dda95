package node

import "embed"

// Files holds adapters/, seeds/ (the seed gates), package.json and package-lock.json, at their paths in this folder.
//
//go:embed adapters seeds package.json package-lock.json
var Files embed.FS
