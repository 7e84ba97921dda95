// Package uniq drops repeated elements from a slice, keeping the first of each in order.
package uniq

// Of returns the elements of in without repeats, each at the place it first stands; it returns
// nil when in is empty.
func Of[T comparable](in []T) []T {
	seen := map[T]bool{}
	var out []T
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
