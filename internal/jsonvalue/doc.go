// Package jsonvalue holds JSON values as Go values (map[string]any, []any, string, json.Number,
// bool, nil): a strict RFC 8259 parser, a deterministic encoder, JSON equality, deep copy and
// JSON Pointer helpers. Numbers stay exact: they are json.Number text, never float64.
package jsonvalue
