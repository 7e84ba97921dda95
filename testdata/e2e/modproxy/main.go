// Command modproxy writes a module proxy folder (GOPROXY=file://DIR) serving the modules of a
// checkout at one pseudo-version, as the public proxy serves a commit: the module at the root and
// each nested module (a folder with its own go.mod), each found by its version and by its commit.
// scripts/e2e-install installs toolproof from it with `go install MODULE/cmd/toolproof@COMMIT`.
//
//	git ls-files -co --exclude-standard | go run ./testdata/e2e/modproxy -out DIR -version V
//
// The file list on stdin is the checkout's files (what a commit holds), relative to the
// working folder, which is the root module's folder.
package main

import (
	"archive/zip"
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

func main() {
	out := flag.String("out", "", "the proxy folder to write")
	version := flag.String("version", "", "the pseudo-version, v0.0.0-YYYYMMDDHHMMSS-COMMIT")
	flag.Parse()
	if err := run(*out, *version, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "modproxy:", err)
		os.Exit(1)
	}
}

var pseudo = regexp.MustCompile(`^v0\.0\.0-(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})-([0-9a-f]{12})$`)

func run(out, version string, list io.Reader) error {
	m := pseudo.FindStringSubmatch(version)
	if out == "" || m == nil {
		return fmt.Errorf("want -out DIR and -version v0.0.0-YYYYMMDDHHMMSS-COMMIT (got %q)", version)
	}
	var files []string
	sc := bufio.NewScanner(list)
	for sc.Scan() {
		if f := strings.TrimSpace(sc.Text()); f != "" {
			if _, err := os.Stat(f); err == nil { // deleted but still listed: not in the commit
				files = append(files, filepath.ToSlash(f))
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	sort.Strings(files)
	modules := map[string]string{} // folder ("" the root) -> module path
	for _, f := range files {
		if path.Base(f) == "go.mod" {
			mod, err := modulePath(f)
			if err != nil {
				return err
			}
			modules[path.Dir(strings.TrimPrefix("./"+f, "./"))] = mod
		}
	}
	if p, ok := modules["."]; ok {
		modules[""] = p
		delete(modules, ".")
	}
	info := fmt.Sprintf(`{"Version": %q, "Time": "%s-%s-%sT%s:%s:%sZ"}`, version, m[1], m[2], m[3], m[4], m[5], m[6])
	for dir, mod := range modules {
		if err := write(out, mod, dir, version, m[7], info, files, modules); err != nil {
			return fmt.Errorf("%s: %v", mod, err)
		}
	}
	return nil
}

// modulePath reads the module line of a go.mod.
func modulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(p), `"`), nil
		}
	}
	return "", fmt.Errorf("%s has no module line", gomod)
}

// write puts the module in dir (its files, less those of modules nested in it) into the proxy.
func write(out, mod, dir, version, commit, info string, files []string, modules map[string]string) error {
	at := filepath.Join(out, filepath.FromSlash(mod), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	zf, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		return err
	}
	defer zf.Close()
	zw := zip.NewWriter(zf)
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for _, f := range files {
		rel, ok := strings.CutPrefix(f, prefix)
		if !ok || nestedIn(f, dir, modules) {
			continue
		}
		w, err := zw.Create(mod + "@" + version + "/" + rel)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(filepath.FromSlash(f))
		if err != nil {
			return err
		}
		if _, err := w.Write(data); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	gomod, err := os.ReadFile(filepath.Join(filepath.FromSlash(dir), "go.mod"))
	if err != nil {
		return err
	}
	for name, body := range map[string]string{"list": version + "\n", version + ".info": info, commit + ".info": info,
		version + ".mod": string(gomod)} {
		if err := os.WriteFile(filepath.Join(at, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// nestedIn reports whether file belongs to a module nested inside dir rather than to dir's.
func nestedIn(file, dir string, modules map[string]string) bool {
	for d := path.Dir(file); d != "." && d != dir; d = path.Dir(d) {
		if _, ok := modules[d]; ok {
			return true
		}
	}
	return false
}
