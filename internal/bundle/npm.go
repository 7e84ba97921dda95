package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Installed returns the unpacked folder rel (slash-separated, holding package.json and
// package-lock.json) with its node_modules, running `npm ci` on first use: in a temporary folder
// whose node_modules is then renamed into place, so that two runs at once cannot leave a broken
// one. what names the validator in the progress line and the errors.
func (c *Cache) Installed(rel, what string) (string, error) {
	root, err := c.Dir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, filepath.FromSlash(rel))
	modules := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(modules); err == nil {
		return dir, nil
	}
	pkgs, err := dependencies(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", fmt.Errorf("validator %s: %v", what, err)
	}
	npm := c.NPM
	if npm == "" {
		if npm, err = exec.LookPath("npm"); err != nil {
			return "", fmt.Errorf("validator %s needs %s, installed once with npm into %s, and npm is not on PATH: "+
				"install Node.js 20 or later with npm, or run `npm ci` in that folder yourself", what, pkgs, dir)
		}
	}
	if c.Progress != nil {
		fmt.Fprintf(c.Progress,
			"toolproof: installing %s for %s with npm ci into %s (once for this version of toolproof)\n",
			pkgs, what, dir)
	}
	tmp, err := os.MkdirTemp(dir, ".npm-")
	if err != nil {
		return "", fmt.Errorf("validator %s: %v", what, err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range []string{"package.json", "package-lock.json"} {
		if err := copyFile(filepath.Join(dir, f), filepath.Join(tmp, f)); err != nil {
			return "", fmt.Errorf("validator %s: %v", what, err)
		}
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("validator %s: `npm ci` of %s in %s failed (%v):\n%s\n"+
			"check that npm reaches its registry (`npm config get registry`), or run `npm ci` in %s yourself",
			what, pkgs, tmp, err, tail(out, 20), dir)
	}
	if err := os.Rename(filepath.Join(tmp, "node_modules"), modules); err != nil {
		if _, statErr := os.Stat(modules); statErr != nil { // not another run's install: a real failure
			return "", fmt.Errorf("validator %s: installing its packages into %s: %v", what, dir, err)
		}
	}
	return dir, nil
}

// dependencies lists the packages package.json depends on, as "ajv, typebox and zod".
func dependencies(file string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	var pkg struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return "", fmt.Errorf("%s: %v", file, err)
	}
	var names []string
	for n := range pkg.Dependencies {
		names = append(names, n)
	}
	sort.Strings(names)
	switch len(names) {
	case 0:
		return "its packages", nil
	case 1:
		return names[0], nil
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1], nil
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// tail is the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
