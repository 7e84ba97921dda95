// Package node carries the node adapters (adapters/*.mjs) with the package.json and
// package-lock.json that pin their libraries, so that an installed toolproof can run them
// without a checkout. The .mjs files are the adapters; see README.md.
package node

import "embed"

// Files holds adapters/, package.json and package-lock.json, at their paths in this folder.
//
//go:embed adapters package.json package-lock.json
var Files embed.FS
