// Package audit reads a tool's schema and says, for every distortion class and every place in
// the arguments, whether the schema catches the distortion there or lets it through, and why:
// an open object lets hallucinated keys pass, a field typed [integer, string] lets stringified
// numbers pass, a free string has no enum to leave. It is the first thing to run on a tool file.
//
// Every claim is backed by a witness: a concrete distortion of a valid value the generator drew,
// judged by the oracle (the reference gatekeeper). "passes" shows argument text the oracle
// accepts, "caught" argument text it rejects; where no distortion of the class could be built
// at a place, the verdict is "not_determined" and nothing is claimed. The schema's keywords only
// say which classes to try where, and explain a verdict when they agree with it. A place that
// passes only because it declares nothing for the class to leave (a free string, a number
// without bounds) is marked Unconstrained; ModelDistortions leaves such places out.
//
// What the audit knows of a class is the class's mutators.AuditHints, read from a registry
// (Options.Classes, mutators.Default by default): analyse.go walks the schema and asks each
// class's Analyse at every place, probe.go builds each class's Probe forms at a place of a
// sample, and audit.go judges them with the oracle.
package audit
