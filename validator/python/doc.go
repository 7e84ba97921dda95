// Package python carries the python adapters (jsonschema_adapter.py for python-jsonschema), so
// that an installed toolproof can run them without a checkout.
package python
