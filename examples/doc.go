// Package examples carries the seed gates (seed-typebox, seed-zod) with the package.json and
// package-lock.json that pin their libraries, so that an installed toolproof can run them
// without a checkout. The .mjs files are the examples; native/ holds sample tool modules.
package examples
