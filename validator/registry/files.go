package registry

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/toolproof/toolproof/internal/bundle"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/node"
	"github.com/toolproof/toolproof/validator/python"
)

// cacheRoot is Cache, or toolproof in the user's cache folder.
func (o *Opener) cacheRoot() (string, error) {
	if o.Cache != "" {
		return o.Cache, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for toolproof's adapters (%v): set XDG_CACHE_HOME or HOME", err)
	}
	return filepath.Join(dir, "toolproof"), nil
}

// bundle is the cache of the adapters and seed gates this binary carries.
func (o *Opener) bundle() (*bundle.Cache, error) {
	root, err := o.cacheRoot()
	if err != nil {
		return nil, err
	}
	return &bundle.Cache{Root: root, Progress: o.Progress, Parts: []bundle.Part{
		{Dir: "validator/node", Files: node.Files},
		{Dir: "validator/python", Files: python.Files},
	}}, nil
}

// folder returns the folder rel (slash-separated, as in the checkout): in Root when set, else
// unpacked from this binary. With npm, the folder's packages must be installed: in Root by the
// developer (`npm ci`), in the cache on first use. what names the validator in errors.
func (o *Opener) folder(rel, what string, npm bool) (string, error) {
	if o.Root != "" {
		dir := filepath.Join(o.Root, filepath.FromSlash(rel))
		if _, err := os.Stat(dir); err != nil {
			return "", fmt.Errorf("validator %s: the toolproof checkout %s (TOOLPROOF_ROOT) has no %s: %v",
				what, o.Root, rel, err)
		}
		if !npm {
			return dir, nil
		}
		if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
			return "", fmt.Errorf("validator %s: its packages are not installed: run `npm ci` in %s", what, dir)
		}
		return dir, nil
	}
	b, err := o.bundle()
	if err != nil {
		return "", err
	}
	if npm {
		return b.Installed(rel, what)
	}
	root, err := b.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, filepath.FromSlash(rel)), nil
}

func (o *Opener) node(name string) (validator.Validator, error) {
	node, dir, err := o.nodeIn(name, "validator/node")
	if err != nil {
		return nil, err
	}
	return o.start([]string{node, filepath.Join(dir, "adapters", name+".mjs")})
}

// nodeIn finds node and the folder rel with its packages installed; what names the validator in
// the errors.
func (o *Opener) nodeIn(what, rel string) (node, dir string, err error) {
	node = o.Node
	if node == "" {
		node = os.Getenv("TOOLPROOF_NODE")
	}
	if node != "" {
		if _, err := os.Stat(node); err != nil {
			return "", "", fmt.Errorf("validator %s: the node binary named by TOOLPROOF_NODE (or Opener.Node): %v",
				what, err)
		}
	} else if node, err = exec.LookPath("node"); err != nil {
		return "", "", fmt.Errorf("validator %s needs Node.js 20 or later (node is not on PATH; TOOLPROOF_NODE names "+
			"another)", what)
	}
	dir, err = o.folder(rel, what, true)
	if err != nil {
		return "", "", err
	}
	return node, dir, nil
}

// python starts validator/python/ADAPTER.py (python-jsonschema -> jsonschema_adapter.py) with
// python3, which must have the jsonschema package.
func (o *Opener) python(name string) (validator.Validator, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, fmt.Errorf("validator %s needs Python 3 (python3 is not on PATH)", name)
	}
	dir, err := o.folder("validator/python", name, false)
	if err != nil {
		return nil, err
	}
	script := filepath.Join(dir, strings.TrimPrefix(name, "python-")+"_adapter.py")
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("validator %s: %v", name, err)
	}
	return o.start([]string{py, script})
}
