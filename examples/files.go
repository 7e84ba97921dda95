package examples

import "embed"

// Files holds seed-typebox/, seed-zod/, package.json and package-lock.json, at their paths in
// this folder.
//
//go:embed seed-typebox seed-zod package.json package-lock.json
var Files embed.FS
