// Package registry maps the validator names the command line accepts to validators: the
// built-in reference, the node adapters (ajv, typebox, zod), the Go zoo (a nested module run
// out of process), python-jsonschema, the seed gates in examples/, exec: for any program
// speaking toolproof/1, node: for a module of native tools and mcp: for an MCP server.
package registry

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/stdio"
)

// Entry is one name --validator accepts.
type Entry struct {
	Name     string
	Describe string
	Kind     string // builtin, node, go-zoo, seed
}

// Entries lists every named validator, in display order.
func Entries() []Entry {
	return []Entry{
		{"reference", "built-in gatekeeper: santhosh-tekuri/jsonschema v6, strict parse, no coercion (also builtin:reference)", "builtin"},
		{"ajv", "node: Ajv 8, draft 2020-12 (draft-07 when the schema says so), strict schemas, ajv-formats", "node"},
		{"ajv-coerce", "node: Ajv 8 with coerceTypes: true; passes on the coerced value", "node"},
		{"ajv-strip", "node: Ajv 8 with removeAdditional: true; passes on the stripped value", "node"},
		{"typebox", "node: TypeBox 1.x Compile (typebox/compile) behind a JSON parse gate, no conversion", "node"},
		{"zod", "node: Zod 4 z.fromJSONSchema + safeParse; passes on zod's output", "node"},
		{"gojsonschema", "go zoo: github.com/xeipuuv/gojsonschema v1.2.0 (out of process)", "go-zoo"},
		{"jsonschema-go", "go zoo: github.com/google/jsonschema-go", "go-zoo"},
		{"qri", "go zoo: github.com/qri-io/jsonschema", "go-zoo"},
		{"kaptinlin", "go zoo: github.com/kaptinlin/jsonschema v0.9.8", "go-zoo"},
		{"json-struct", "go zoo: encoding/json into a struct built from the schema", "go-zoo"},
		{"json-struct-strict", "go zoo: the same with DisallowUnknownFields", "go-zoo"},
		{"python-jsonschema", "python: python-jsonschema (the draft $schema names, formats asserted), json.loads numbers, strict parse gate", "python"},
		{"seed-typebox", "seed gate: TypeBox parseToolArguments, tool read (examples/seed-typebox; serves its tools)", "seed"},
		{"seed-zod", "seed gate: zod ToolValidationGatekeeper, tool execute_code (examples/seed-zod; serves its tools)", "seed"},
	}
}

// Opener opens validators by name, building or locating what they need once.
type Opener struct {
	Root    string        // the repository checkout (holds validator/node and zoo); "" finds it
	Options stdio.Options // window, timeout and stderr for child processes
	// MCP holds the settings of mcp: servers (patterns, tool filters); its Command is set by
	// Open, and a zero Window, Timeout or Stderr is taken from Options.
	MCP mcp.Options

	zooOnce sync.Once
	zooBin  string
	zooErr  error
}

// Open returns the validator SPEC names: an entry name, builtin:NAME, exec:COMMAND ARGS, or
// node:PATH (a module of native tools) or mcp:COMMAND ARGS (an MCP server over stdio) or
// mcp:http(s)://... (one over Streamable HTTP). The
// caller closes it (Close) when it is a process.
func (o *Opener) Open(spec string) (validator.Validator, error) {
	if path, ok := strings.CutPrefix(spec, "node:"); ok {
		return o.nativeModule(path)
	}
	if cmd, ok := strings.CutPrefix(spec, "mcp:"); ok {
		opts := o.MCP
		if strings.HasPrefix(cmd, "http://") || strings.HasPrefix(cmd, "https://") {
			opts.URL = strings.TrimSpace(cmd)
		} else {
			argv, err := stdio.ParseCommand(cmd)
			if err != nil {
				return nil, fmt.Errorf("--validator %s: %v", spec, err)
			}
			opts.Command = argv
		}
		if opts.Window == 0 {
			opts.Window = o.Options.Window
		}
		if opts.Timeout == 0 {
			opts.Timeout = o.Options.Timeout
		}
		if opts.Stderr == nil {
			opts.Stderr = o.Options.Stderr
		}
		return mcp.Start(opts)
	}
	if cmd, ok := strings.CutPrefix(spec, "exec:"); ok {
		argv, err := stdio.ParseCommand(cmd)
		if err != nil {
			return nil, fmt.Errorf("--validator %s: %v", spec, err)
		}
		return o.start(argv)
	}
	name, builtin := strings.CutPrefix(spec, "builtin:")
	for _, e := range Entries() {
		if e.Name != name || (builtin && e.Kind != "builtin") {
			continue
		}
		switch e.Kind {
		case "builtin":
			return validator.Reference{}, nil
		case "node":
			return o.node(name)
		case "go-zoo":
			return o.zoo(name)
		case "python":
			return o.python(name)
		case "seed":
			return o.seed(name)
		}
	}
	return nil, fmt.Errorf("unknown validator %q: `toolproof validators` lists the names; exec:COMMAND runs any toolproof/1 program, mcp:COMMAND an MCP server", spec)
}

// Close stops v if it is a process.
func Close(v validator.Validator) error {
	if c, ok := v.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

func (o *Opener) root() (string, error) {
	if o.Root != "" {
		return o.Root, nil
	}
	if r := os.Getenv("TOOLPROOF_ROOT"); r != "" {
		return r, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "validator", "node", "adapters")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("cannot find the toolproof checkout (validator/node/adapters) above the working directory; set TOOLPROOF_ROOT")
		}
		dir = parent
	}
}

func (o *Opener) node(name string) (validator.Validator, error) {
	node, dir, err := o.nodeIn(name, filepath.Join("validator", "node"))
	if err != nil {
		return nil, err
	}
	return o.start([]string{node, filepath.Join(dir, "adapters", name+".mjs")})
}

// nodeIn finds node and the directory rel of the checkout, whose packages must be installed;
// what names the validator in the errors.
func (o *Opener) nodeIn(what, rel string) (node, dir string, err error) {
	root, err := o.root()
	if err != nil {
		return "", "", err
	}
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", fmt.Errorf("validator %s needs Node.js (node is not on PATH)", what)
	}
	dir = filepath.Join(root, rel)
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		return "", "", fmt.Errorf("validator %s: its packages are not installed: run `npm ci` in %s", what, dir)
	}
	return node, dir, nil
}

// python starts validator/python/ADAPTER.py (python-jsonschema -> jsonschema_adapter.py) with
// python3, which must have the jsonschema package.
func (o *Opener) python(name string) (validator.Validator, error) {
	root, err := o.root()
	if err != nil {
		return nil, err
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, fmt.Errorf("validator %s needs Python 3 (python3 is not on PATH)", name)
	}
	script := filepath.Join(root, "validator", "python", strings.TrimPrefix(name, "python-")+"_adapter.py")
	if _, err := os.Stat(script); err != nil {
		return nil, fmt.Errorf("validator %s: %v", name, err)
	}
	return o.start([]string{py, script})
}

func (o *Opener) zoo(name string) (validator.Validator, error) {
	o.zooOnce.Do(func() {
		root, err := o.root()
		if err != nil {
			o.zooErr = err
			return
		}
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		bin := filepath.Join(cache, "toolproof", "toolproof-zoo")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/toolproof-zoo")
		cmd.Dir = filepath.Join(root, "zoo")
		if out, err := cmd.CombinedOutput(); err != nil {
			o.zooErr = fmt.Errorf("building the Go validator zoo (%s): %v\n%s", cmd.Dir, err, out)
			return
		}
		o.zooBin = bin
	})
	if o.zooErr != nil {
		return nil, o.zooErr
	}
	return o.start([]string{o.zooBin, name})
}

// nativeModule runs validator/node/adapters/native.mjs on the module at path (relative to the
// working directory): the module's tools, gated by their own schemas.
func (o *Opener) nativeModule(path string) (validator.Validator, error) {
	if path == "" {
		return nil, fmt.Errorf("--validator node:PATH: no module path given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("--validator node:%s: %v", path, err)
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("--validator node:%s: %v", path, err)
	}
	node, dir, err := o.nodeIn("node:"+path, filepath.Join("validator", "node"))
	if err != nil {
		return nil, err
	}
	return o.start([]string{node, filepath.Join(dir, "adapters", "native.mjs"), abs, path})
}

// seed runs one of the seed gates: examples/NAME/toolproof.mjs.
func (o *Opener) seed(name string) (validator.Validator, error) {
	node, dir, err := o.nodeIn(name, "examples")
	if err != nil {
		return nil, err
	}
	return o.start([]string{node, filepath.Join(dir, name, "toolproof.mjs")})
}

// start runs argv as a toolproof/1 child; its name comes from its hello (name and version).
// A child that serves tools of its own is a validator.ToolSource (stdio.ToolServer).
func (o *Opener) start(argv []string) (validator.Validator, error) {
	opts := o.Options
	opts.Command = argv
	c, err := stdio.Start(opts)
	if err != nil {
		return nil, err
	}
	return c.Validator(), nil
}
