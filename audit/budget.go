package audit

// MaxOracleBytes is the default Budget: the argument text the oracle validates for one tool.
// Each witness is a whole argument object, so a tool of N properties costs about N² bytes;
// 64 MiB lets a tool of 200 flat required properties finish and stops one of 300 or more
// within seconds.
const MaxOracleBytes = 64 << 20

// maxText is the length of the longest sample's text.
func maxText(samples []sample) int {
	n := 0
	for _, s := range samples {
		n = max(n, len(s.text))
	}
	return n
}
