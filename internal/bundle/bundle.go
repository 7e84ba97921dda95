package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Part is one carried folder: Files, unpacked at Dir (slash-separated, as in the checkout).
type Part struct {
	Dir   string
	Files fs.FS
}

// Cache is the unpacked copy of Parts: Root/HASH/DIR/..., HASH naming their content.
type Cache struct {
	Root     string    // holds one folder per content hash, e.g. toolproof in os.UserCacheDir()
	Parts    []Part    // what to unpack
	NPM      string    // the npm program; "" looks npm up on PATH
	Progress io.Writer // gets one line before each npm ci; nil discards it
}

// unused is how long a folder of another content hash may go unused before Dir removes it.
const unused = 30 * 24 * time.Hour

// Dir returns the folder holding the unpacked Parts, unpacking them first when no run has: into a
// temporary folder renamed into place, so a folder that exists is complete.
func (c *Cache) Dir() (string, error) {
	sum, err := c.Hash()
	if err != nil {
		return "", err
	}
	dst := filepath.Join(c.Root, sum)
	if _, err := os.Stat(dst); err == nil {
		now := time.Now()
		_ = os.Chtimes(dst, now, now) // marks it used, so that pruning keeps it
		return dst, nil
	}
	if err := os.MkdirAll(c.Root, 0o755); err != nil {
		return "", fmt.Errorf("the toolproof cache: %v", err)
	}
	tmp, err := os.MkdirTemp(c.Root, ".unpack-")
	if err != nil {
		return "", fmt.Errorf("the toolproof cache: %v", err)
	}
	if err := c.write(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("unpacking toolproof's adapters into %s: %v", tmp, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(dst); statErr != nil { // not another run's folder: a real failure
			return "", fmt.Errorf("unpacking toolproof's adapters into %s: %v", dst, err)
		}
	}
	c.prune(sum)
	return dst, nil
}

// Hash names the content of Parts: 16 hex digits of the SHA-256 of every path and file.
func (c *Cache) Hash() (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "toolproof bundle 1\n")
	err := c.each(func(name string, data []byte) error {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// each calls fn with every file of Parts (its slash path under the unpacked folder, its bytes), in
// the order of the parts' Dir and then of the paths.
func (c *Cache) each(fn func(name string, data []byte) error) error {
	parts := append([]Part(nil), c.Parts...)
	sort.Slice(parts, func(i, j int) bool { return parts[i].Dir < parts[j].Dir })
	for _, p := range parts {
		err := fs.WalkDir(p.Files, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(p.Files, name)
			if err != nil {
				return err
			}
			return fn(path.Join(p.Dir, name), data)
		})
		if err != nil {
			return fmt.Errorf("the carried folder %s: %v", p.Dir, err)
		}
	}
	return nil
}

// write puts every file of Parts under dir.
func (c *Cache) write(dir string) error {
	return c.each(func(name string, data []byte) error {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		return os.WriteFile(file, data, 0o644)
	})
}

// prune removes the folders of other content hashes unused for 30 days, and temporary folders
// of unpacking runs that died, once a new folder is in place. Errors are ignored: a folder in use
// on a system that refuses to remove it stays for the next time.
func (c *Cache) prune(keep string) {
	entries, err := os.ReadDir(c.Root)
	if err != nil {
		return
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.IsDir() || e.Name() == keep || time.Since(info.ModTime()) < unused {
			continue
		}
		if isHash(e.Name()) || strings.HasPrefix(e.Name(), ".unpack-") {
			os.RemoveAll(filepath.Join(c.Root, e.Name()))
		}
	}
}

func isHash(name string) bool {
	if len(name) != 16 {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil
}
