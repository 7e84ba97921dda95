// Package housestyle holds the house-style checks of the repository that run as tests: every Go
// file git tracks keeps its lines to at most 120 columns, a tab counting as 4
// (go test ./internal/housestyle).
package housestyle
