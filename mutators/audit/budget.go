package audit

// MaxOracleBytes is the default Budget: the argument text the oracle validates for one tool.
// Each witness is a whole argument object, so a tool of N required properties costs about N²
// bytes whatever is done (each of its places needs a witness of N properties); 64 MiB lets a
// tool of 500 flat required properties finish and stops one of 1000 or more within seconds.
const MaxOracleBytes = 64 << 20

// PlaceBytes bounds the audit's own distortions at one place: the samples are tried in turn,
// shortest first, and the next one is begun only while the distortions built there come to
// less than this many bytes of argument text. A witness is a whole argument object, so the
// samples of a tool of many properties are big: each place then tries the first sample that
// has it, not all of them, and the audit's work grows with the number of places times the
// size of one value, not twelve times that. A small tool's places try every sample.
const PlaceBytes = 16 << 10

// maxText is the length of the longest sample's text.
func maxText(samples []sample) int {
	n := 0
	for _, s := range samples {
		n = max(n, len(s.text))
	}
	return n
}
