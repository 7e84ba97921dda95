// Package registry maps the validator names the command line accepts to validators: the
// built-in reference, the node adapters (ajv, typebox, zod), the Go zoo (a nested module run
// out of process), python-jsonschema, the seed gates in validator/node/seeds/, exec: for any program
// speaking toolproof/1, node: for a module of native tools and mcp: for an MCP server. The
// adapters and seed gates travel inside the binary and run from the user's cache folder.
package registry
