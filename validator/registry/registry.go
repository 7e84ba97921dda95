package registry

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/mcp"
	"github.com/toolproof/toolproof/validator/oracle"
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
		{"reference", "built-in gatekeeper: santhosh-tekuri/jsonschema v6, strict parse, no coercion (also " +
			"builtin:reference)", "builtin"},
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
		{"python-jsonschema",
			"python: python-jsonschema (the draft $schema names, formats asserted), json.loads numbers, strict parse " +
				"gate", "python"},
		{"seed-typebox", "seed gate: TypeBox parseToolArguments, tool read (validator/node/seeds/seed-typebox; " +
			"serves its tools)", "seed"},
		{"seed-zod", "seed gate: zod ToolValidationGatekeeper, tool execute_code (validator/node/seeds/seed-zod; " +
			"serves its tools)", "seed"},
	}
}

// Opener opens validators by name, building or locating what they need once.
type Opener struct {
	// Root is a toolproof checkout to run the adapters, seed gates and zoo from, for developing
	// toolproof (the command line takes it from TOOLPROOF_ROOT); "" runs the copies carried in
	// this binary, unpacked into Cache, and installs the zoo with `go install`.
	Root string
	// Cache is the folder for the unpacked adapters, their npm packages and the zoo; "" is
	// toolproof in os.UserCacheDir().
	Cache string
	// Progress gets a line before a first-use install (npm ci, the zoo's build); nil discards.
	Progress io.Writer
	// Version is the toolproof module version the zoo is installed at; "" is this binary's.
	Version string
	// Node is the node binary the node adapters run on; "" takes TOOLPROOF_NODE, else node on
	// PATH (the frameworks of node:PATH modules may need a newer Node than the system's).
	Node    string
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
		if isURL(cmd) {
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
			return oracle.Reference{}, nil
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
	return nil, fmt.Errorf("unknown validator %q: `toolproof validators` lists the names; exec:COMMAND runs any "+
		"toolproof/1 program, mcp:COMMAND an MCP server", spec)
}

// RedactSpec is a validator spec as reports and commands record it: the URL of mcp:http(s)://...
// through mcp.RedactURL (no password, no query value), any other spec as it is.
func RedactSpec(spec string) string {
	if u, ok := strings.CutPrefix(spec, "mcp:"); ok && isURL(u) {
		return "mcp:" + mcp.RedactURL(u)
	}
	return spec
}

func isURL(s string) bool {
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

// Close stops v if it is a process.
func Close(v validator.Validator) error {
	if c, ok := v.(validator.Closer); ok {
		return c.Close()
	}
	return nil
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
	node, dir, err := o.nodeIn("node:"+path, "validator/node")
	if err != nil {
		return nil, err
	}
	return o.start([]string{node, filepath.Join(dir, "adapters", "native.mjs"), abs, path})
}

// seed runs one of the seed gates: validator/node/seeds/NAME/toolproof.mjs (which imports the
// adapters' protocol from validator/node/adapters).
func (o *Opener) seed(name string) (validator.Validator, error) {
	node, dir, err := o.nodeIn(name, "validator/node")
	if err != nil {
		return nil, err
	}
	return o.start([]string{node, filepath.Join(dir, "seeds", name, "toolproof.mjs")})
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
