// Package schemawalk visits every subschema reachable from a compiled schema.
package schemawalk
