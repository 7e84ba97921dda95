package corpus

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/atomicfile"
)

// Class names what a case is: Valid, or a kind of distortion (the mutators name them).
type Class string

// Valid is the class of the valid values the generator draws.
const Valid Class = "valid"

// Expect is the verdict a gate owes a case.
type Expect string

// The verdicts.
const (
	Accept Expect = "accept" // valid: must be accepted
	Reject Expect = "reject" // confirmed invalid by the oracle: must be rejected
	Either Expect = "either" // implementation-defined: recorded, never failed (crashes and hangs are)
)

// Case is one concrete call and the verdict a gate owes it. The argument text is stored as is,
// so a saved case replays the same whatever the generator does later.
type Case struct {
	ID         string  `json:"id"`                // content hash of tool, class, expectation and args
	Tool       string  `json:"tool"`              // tool name
	SchemaHash string  `json:"schema_hash"`       // tool.Tool.SchemaHash of the schema it was made for
	Args       []byte  `json:"-"`                 // raw argument text (may not be JSON, or UTF-8)
	Expect     Expect  `json:"expect"`            // accept, reject or either
	Class      Class   `json:"class"`             // Valid or a distortion class
	Variant    string  `json:"variant,omitempty"` // the form of the class
	Path       string  `json:"path,omitempty"`    // JSON Pointer the mutation touched
	Scope      string  `json:"scope,omitempty"`   // the highest place an issue may point at and still locate it
	Also       []Place `json:"also,omitempty"`    // other places the oracle finds the distorted value invalid
	Keyword    string  `json:"keyword,omitempty"` // schema keyword it breaks
	Reason     string  `json:"reason,omitempty"`  // one line
	Canary     string  `json:"canary,omitempty"`  // planted string no message may repeat
	Original   []byte  `json:"-"`                 // the valid argument text the mutation started from
	Provenance string  `json:"provenance,omitempty"`
	Raw        bool    `json:"-"` // a raw-text distortion: not a JSON value the schema can judge
}

// Place is a place where the oracle finds a distorted value invalid, besides the one the
// distortion touched: a change that flips an `if` makes its `then` or `else` fail elsewhere (a
// missing "environment" makes `else` cap "/replicas"). Path is where the oracle reports it,
// Scope the highest place above it that an issue may point at (as for Case.Scope).
type Place struct {
	Path  string `json:"path"`
	Scope string `json:"scope"`
}

// Locates reports whether an issue at the JSON Pointer at points at the distortion: at Path,
// inside the distorted value (a duplicate item, a key of a wrapper), or above it no higher than
// Scope (the object that lacks a key, the anyOf no branch fits); or at one of the Also places,
// or above it no higher than its scope. The root locates only what is at the root, or whose
// scope reaches it.
func (c *Case) Locates(at string) bool {
	if isPrefix(c.Path, at) || (isPrefix(at, c.Path) && isPrefix(c.Scope, at)) {
		return true
	}
	for _, p := range c.Also {
		if isPrefix(at, p.Path) && isPrefix(p.Scope, at) {
			return true
		}
	}
	return false
}

// isPrefix reports whether the JSON Pointer anc is p or one of its ancestors.
func isPrefix(anc, p string) bool {
	return anc == p || (strings.HasPrefix(p, anc) && p[len(anc)] == '/')
}

// MarshalJSON writes args as a string, or as args_base64 when the text is not UTF-8.
func (c Case) MarshalJSON() ([]byte, error) {
	type plain Case
	out := struct {
		plain
		Args       *string `json:"args,omitempty"`
		ArgsBase64 *string `json:"args_base64,omitempty"`
		Original   *string `json:"original,omitempty"`
		Path       *string `json:"path,omitempty"` // present for every distortion: the root is ""
	}{plain: plain(c)}
	if c.Class != Valid {
		p := c.Path
		out.Path = &p
	}
	if utf8.Valid(c.Args) {
		s := string(c.Args)
		out.Args = &s
	} else {
		s := base64.StdEncoding.EncodeToString(c.Args)
		out.ArgsBase64 = &s
	}
	if len(c.Original) > 0 {
		o := string(c.Original)
		out.Original = &o
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Case) UnmarshalJSON(b []byte) error {
	type plain Case
	var in struct {
		plain
		Args       *string `json:"args"`
		ArgsBase64 *string `json:"args_base64"`
		Original   *string `json:"original"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*c = Case(in.plain)
	switch {
	case in.Args != nil:
		c.Args = []byte(*in.Args)
	case in.ArgsBase64 != nil:
		raw, err := base64.StdEncoding.DecodeString(*in.ArgsBase64)
		if err != nil {
			return fmt.Errorf("args_base64: %v", err)
		}
		c.Args = raw
	default:
		return errors.New("no args or args_base64")
	}
	if in.Original != nil {
		c.Original = []byte(*in.Original)
	}
	return nil
}

// ComputeID returns the content hash that names a case: stable for the same tool, class,
// expectation and argument text.
func ComputeID(toolName string, class Class, expect Expect, args []byte) string {
	h := sha256.New()
	for _, part := range []string{toolName, string(class), string(expect)} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	h.Write(args)
	return hex.EncodeToString(h.Sum(nil)[:10])
}

// Seal sets the case's ID from its content and returns the case.
func (c Case) Seal() Case {
	c.ID = ComputeID(c.Tool, c.Class, c.Expect, c.Args)
	return c
}

// Validate reports what is wrong with a case read from a file.
func (c Case) Validate() error {
	switch {
	case c.Tool == "":
		return errors.New("no tool")
	case c.Expect != Accept && c.Expect != Reject && c.Expect != Either:
		return fmt.Errorf("expect is %q, want accept, reject or either", c.Expect)
	case c.Class == "":
		return errors.New("no class")
	case c.ID != ComputeID(c.Tool, c.Class, c.Expect, c.Args):
		return fmt.Errorf("id %s does not match the content (want %s)", c.ID,
			ComputeID(c.Tool, c.Class, c.Expect, c.Args))
	}
	return nil
}

// Save writes c to dir/ID.json atomically (a temporary file renamed into place), creating dir.
// The file name is the hash alone: tool names never become paths.
func Save(dir string, c Case) (string, error) {
	if c.ID == "" {
		c = c.Seal()
	}
	if err := c.Validate(); err != nil {
		return "", fmt.Errorf("cases: case for tool %q: %v", c.Tool, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	data = append(data, '\n')
	path := filepath.Join(dir, c.ID+".json")
	return path, atomicfile.WriteFile(path, data, 0o644)
}

// Load reads every case file (*.json) in dir, in name order. A missing dir is no cases. A file
// that is not a valid case is an error naming the file.
func Load(dir string) ([]Case, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []Case
	for _, name := range names {
		path := filepath.Join(dir, name)
		// A FIFO or a device is refused before it is opened: reading one could wait forever.
		if info, err := os.Stat(path); err != nil {
			return nil, err
		} else if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file (mode %s): a saved case is a regular file; move it out "+
				"of %s", path, info.Mode(), dir)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var c Case
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("%s: not a case file: %v", path, err)
		}
		if err := c.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		if name != c.ID+".json" {
			return nil, fmt.Errorf("%s: named after %s, not its id %s", path, name, c.ID)
		}
		out = append(out, c)
	}
	return out, nil
}
