// Package atomicfile writes a file whole or not at all: the data goes to a temporary file in the
// same directory, synced, then renamed over the path. A full disk, a signal or a crash leaves the
// old file (or none), never a truncated one.
package atomicfile

import (
	"os"
	"path/filepath"
)

// WriteFile writes data to path as os.WriteFile does, but atomically: readers see the old
// content or the new, never a part. The file gets mode perm (the umask does not apply).
func WriteFile(path string, data []byte, perm os.FileMode) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is left to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
