//go:build !linux

package procgroup

import "os"

// KillWhenLeaderExits does nothing here: the group is killed when the connection is closed.
func KillWhenLeaderExits(*os.Process, Tag) {}
