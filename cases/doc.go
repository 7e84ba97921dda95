// Package cases holds the one record every layer of toolproof passes along: a concrete call of a
// tool (the raw argument text), the verdict a gate owes it, and what made it (the class of
// distortion, the place, the keyword, the reason). The mutators make cases, the harness judges
// them and reports them, and the regression corpus stores them, one JSON file per case, named by
// the hash of its content, written atomically and replayed before anything new is generated.
package cases
