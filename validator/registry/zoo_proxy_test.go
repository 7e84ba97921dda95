package registry_test

// The zoo as an installed toolproof gets it: `go install` of its command at the binary's version
// from the module proxy. A file:// proxy serves the checkout's zoo module at a pseudo-version;
// its dependencies come from the module cache or the usual proxy.

import (
	"archive/zip"
	"bytes"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const (
	zooModule  = "github.com/toolproof/toolproof/zoo"
	zooVersion = "v0.0.0-20260101000000-0123456789ab"
	zooCommit  = "0123456789ab"
)

// zooProxy writes a module proxy folder holding the checkout's zoo at zooVersion, also found by
// its commit.
func zooProxy(t *testing.T) string {
	t.Helper()
	src := filepath.Join(root(t), "zoo")
	proxy := t.TempDir()
	at := filepath.Join(proxy, filepath.FromSlash(zooModule), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info := `{"Version": "` + zooVersion + `", "Time": "2026-01-01T00:00:00Z"}`
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		w, err := zw.Create(zooModule + "@" + zooVersion + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	})
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{
		"list":               []byte(zooVersion + "\n"),
		zooVersion + ".info": []byte(info),
		zooCommit + ".info":  []byte(info),
		zooVersion + ".mod":  mod,
		zooVersion + ".zip":  zipped.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(at, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proxy
}

func TestZooFromModuleProxy(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the file:// proxy path is written for Unix")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	upstream, err := exec.Command(goCmd, "env", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPROXY", "file://"+zooProxy(t)+","+strings.TrimSpace(string(upstream)))
	t.Setenv("GONOSUMDB", zooModule) // not in the checksum database: it is this checkout's
	cache := t.TempDir()
	var progress bytes.Buffer
	o := carried(cache)
	o.Version, o.Progress = zooVersion, &progress
	v := open(t, o, "json-struct")
	if vd := verdict(t, v, tools(t, "read")[0], `{"path": 7}`); vd.Valid {
		t.Errorf("%s accepted a number for a string", v.Name())
	}
	if !strings.Contains(progress.String(), "go install "+zooModule+"/cmd/toolproof-zoo@"+zooCommit) {
		t.Errorf("progress %q does not name the go install", progress.String())
	}
	if _, err := os.Stat(filepath.Join(cache, "zoo", zooCommit, "toolproof-zoo")); err != nil {
		t.Errorf("the zoo is not in the cache: %v", err)
	}
	// Installed once: another run at the same version starts it without go install.
	t.Setenv("GOPROXY", "off")
	again := carried(cache)
	again.Version = zooVersion
	open(t, again, "gojsonschema")
}
