// Package node carries the node adapters (adapters/*.mjs), the seed gates (seeds/seed-typebox,
// seeds/seed-zod) and the package.json and package-lock.json that pin their libraries, so that an
// installed toolproof can run them without a checkout. See README.md.
package node
