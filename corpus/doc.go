// Package corpus is the regression corpus and the record it keeps: a Case is one concrete call of
// a tool (the raw argument text), the verdict a gate owes it, and what made it (the class of
// distortion, the place, the keyword, the reason). The mutators make cases, the harness judges
// and reports them, and the corpus stores them, one JSON file per case, named by the hash of its
// content, written atomically and replayed before anything new is generated.
package corpus
