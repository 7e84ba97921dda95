// Package node carries the node adapters (adapters/*.mjs) with the package.json and
// package-lock.json that pin their libraries, so that an installed toolproof can run them
// without a checkout. The .mjs files are the adapters; see README.md.
package node
