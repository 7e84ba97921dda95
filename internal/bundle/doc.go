// Package bundle unpacks the files toolproof carries inside its binary (the node and python
// adapters, the seed gates) into a folder of the user's cache named by their content hash, and
// installs their npm packages there from the carried lockfiles on first use. A new toolproof
// carries other files, so it gets its own folder; two runs at once never see a half-written one.
package bundle
