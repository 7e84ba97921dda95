// Package python carries the python adapters (jsonschema_adapter.py for python-jsonschema), so
// that an installed toolproof can run them without a checkout.
package python

import "embed"

// Files holds the adapters, at their paths in this folder.
//
//go:embed *.py
var Files embed.FS
