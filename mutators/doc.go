// Package mutators holds the distortions language models apply to tool arguments, one file per
// class (wrapping.go holds the two wrappings, raw.go the three classes of raw argument text). A
// mutator draws (through rapid, so failing cases shrink with their mutation) a change of a valid
// value and says what it did: the new argument text, the class, the JSON Pointer it touched, the
// schema keyword it breaks, a one-line reason and the verdict a gate owes it. A change is kept as
// must-reject only when the oracle (oracle.Oracle, with its readings of numbers and formats)
// rejects it for that keyword at that place.
//
// Each class is defined once, in its file: a Definition holds its name, its docs line, its
// Mutator, its recogniser and its AuditHints; registry.go holds the one ordered table of them
// (Default), which All, Classes, Select, Context.Recognise and the audit read. Beside the classes:
// mutation.go (the Mutator), audithints.go (what the audit asks of a class), context.go (one
// tool's Context), target.go (a valid value and edits of its text), confirm.go (the oracle's
// check of a candidate), sites.go (the places of a value), siblings.go; and the recognisers,
// the taxonomy read backwards: recognise.go (Context.Recognise), recognise_reading.go (undoing
// distortions one by one), recognise_site.go. A class's recogniser is in its file, or in
// recognise_<class>.go where that file would be too long (out_of_range_enum) or where Recognise
// reads the class in the text and root layers (recognise_root.go, recognise_malformed.go,
// recognise_implementation.go).
package mutators
