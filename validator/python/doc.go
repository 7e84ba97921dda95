// Package python carries the python adapters (jsonschema_adapter.py for python-jsonschema), and
// toolproof_fork.py, the fork server they offer (validator/stdio/PROTOCOL.md), so that an
// installed toolproof can run them without a checkout.
package python
