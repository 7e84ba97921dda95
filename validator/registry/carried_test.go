package registry_test

// The adapters this binary carries, run from a cache folder as an installed toolproof runs them
// (no checkout, no Root): the python adapter as is, and node: with a stand-in npm, which shows
// that a module's packages come from its own node_modules and never from toolproof's. The real
// npm ci, the seed gates and ajv, zod and typebox from the cache run in scripts/e2e-install.

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/internal/needs"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/registry"
	"github.com/toolproof/toolproof/validator/stdio"
)

func carried(cache string) *registry.Opener {
	return &registry.Opener{Cache: cache, Options: stdio.Options{Stderr: io.Discard, Timeout: 10 * time.Second}}
}

func TestCarriedPython(t *testing.T) {
	needs.Met(t, "TOOLPROOF_REQUIRE_PYTHON", "the python adapter", needs.Python())
	cache := t.TempDir()
	v := open(t, carried(cache), "python-jsonschema")
	read := tools(t, "read")[0]
	if vd := verdict(t, v, read, `{"path": 7}`); vd.Valid {
		t.Errorf("%s accepted a number for a string", v.Name())
	}
	scripts, _ := filepath.Glob(filepath.Join(cache, "*", "validator", "python", "jsonschema_adapter.py"))
	if len(scripts) != 1 {
		t.Errorf("the adapter was not unpacked into the cache: %v", scripts)
	}
}

// project writes a module of native tools at dir/tools.mjs whose gate comes from the package
// userlib in dir/node_modules, and leak.mjs, which imports a package only toolproof's
// node_modules has.
func project(t *testing.T, dir string) {
	t.Helper()
	files := map[string]string{
		"node_modules/userlib/package.json": `{"name": "userlib", "version": "1.0.0", "type": "module", "exports": ` +
			`"./index.js"}`,
		"node_modules/userlib/index.js": `export const requireText = {
  "~standard": { version: 1, vendor: "userlib", validate(v) {
    return v !== null && typeof v === "object" && typeof v.text === "string" && Object.keys(v).length === 1
      ? { value: v } : { issues: [{ message: "want {text: string}", path: ["text"] }] };
  } },
};`,
		"tools.mjs": `import { requireText } from "userlib";
export const tools = [{ name: "echo", description: "Echo a text", schema: requireText,
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false } }];`,
		"leak.mjs": `import "toolproof-only";
export const tools = [];`,
	}
	for name, body := range files {
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCarriedNativeUsesTheModulesPackages(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-in npm is a shell script")
	}
	why := ""
	if _, err := exec.LookPath("node"); err != nil {
		why = "node is not on PATH"
	}
	needs.Met(t, "TOOLPROOF_REQUIRE_NODE", "the carried node: adapter", why)
	// The stand-in npm installs one package, toolproof-only, into toolproof's node_modules.
	bin := t.TempDir()
	npm := `#!/bin/sh
mkdir -p node_modules/toolproof-only &&
echo '{"name": "toolproof-only", "version": "1.0.0", "type": "module", "exports": "./index.js"}' > node_modules/toolproof-only/package.json &&
echo 'export default 1;' > node_modules/toolproof-only/index.js
`
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(npm), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := t.TempDir()
	project(t, dir)
	cache := t.TempDir()

	v := open(t, carried(cache), "node:"+filepath.Join(dir, "tools.mjs"))
	ts, err := v.(validator.ToolSource).Tools()
	if err != nil || len(ts) != 1 || ts[0].Name != "echo" {
		t.Fatalf("the module's tools: %v, %v", ts, err)
	}
	if vd := verdict(t, v, ts[0], `{"text": "hi"}`); !vd.Valid {
		t.Errorf("userlib's gate rejected a valid call: %v", vd.Issues)
	}
	if vd := verdict(t, v, ts[0], `{"text": "hi", "extra": 1}`); vd.Valid {
		t.Error("userlib's gate accepted an extra key: the gate is not the module's")
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "*", "validator", "node", "node_modules",
		"toolproof-only")); len(m) != 1 {
		t.Fatalf("toolproof's packages were not installed into the cache: %v", m)
	}

	// toolproof's own packages are not the module's: importing one fails as it would in Node.
	leak, err := carried(cache).Open("node:" + filepath.Join(dir, "leak.mjs"))
	if err == nil {
		_, err = leak.(validator.ToolSource).Tools()
		registry.Close(leak)
	}
	if err == nil || !strings.Contains(err.Error(), "toolproof-only") {
		t.Errorf("a module importing a package only toolproof has: %v; want an error naming toolproof-only", err)
	}
}

// An installed binary installs the zoo's command at its own version; without a version to
// install at, or without a proxy that has it, the error says what to do.
func TestCarriedZooErrors(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	for version, says := range map[string][]string{
		"(devel)": {"built from a checkout", "TOOLPROOF_ROOT",
			"go install github.com/toolproof/toolproof/validator/zoo/cmd/toolproof-zoo@VERSION"},
		"v0.0.0-20261202003937-fa846b9a1b2c": {"`go install github.com/toolproof/toolproof/validator/zoo/cmd/toolproo" +
			"f-zoo@fa846b9a1b2c` failed",
			"GOPROXY=off", "reachable through GOPROXY", "TOOLPROOF_ROOT"},
	} {
		o := carried(t.TempDir())
		o.Version = version
		v, err := o.Open("json-struct")
		if err == nil {
			registry.Close(v)
			t.Fatalf("version %s: the zoo opened with GOPROXY=off", version)
		}
		for _, w := range says {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("version %s: %q does not say %q", version, err, w)
			}
		}
	}
}
