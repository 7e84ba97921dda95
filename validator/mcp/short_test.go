package mcp_test

import "testing"

// unshort is n checks under -short too, for a test whose point needs that many draws (the
// harness runs a fifth of Options.Checks under -short, as rapid does).
func unshort(n int) int {
	if testing.Short() {
		return n * 5
	}
	return n
}
