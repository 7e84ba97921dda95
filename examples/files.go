// Package examples carries the seed gates (seed-typebox, seed-zod) with the package.json and
// package-lock.json that pin their libraries, so that an installed toolproof can run them
// without a checkout. The .mjs files are the examples; native/ holds sample tool modules.
package examples

import "embed"

// Files holds seed-typebox/, seed-zod/, package.json and package-lock.json, at their paths in
// this folder.
//
//go:embed seed-typebox seed-zod package.json package-lock.json
var Files embed.FS
