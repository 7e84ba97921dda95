//go:build !linux

package procgroup

// BecomeSubreaper does nothing here: only Linux has subreapers.
func BecomeSubreaper() error { return nil }

// End does nothing here: the tagged processes are found through Linux's /proc; the process
// group is killed as before.
func (Tag) End() {}
