package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/internal/execute"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/tool"
)

// Fuzz returns the property of Check for one tool as a go test -fuzz target: the fuzzer's bytes
// drive rapid's choices (rapid.MakeFuzz), so coverage guidance explores values and distortions
// together. Use it as f.Fuzz(target).
func Fuzz(t tool.Tool, v validator.Validator, opts Options) (func(*testing.T, []byte), error) {
	p, skip := prepareOne(t, v, opts, siblingsFor([]tool.Tool{t}, opts))
	if skip != nil {
		return nil, errors.New(skip.String())
	}
	r := newExecutor(opts, nil, nil)
	ms := opts.mutators()
	return rapid.MakeFuzz(func(rt *rapid.T) {
		cs, originals, _, ok := draw(rt, p, ms)
		if !ok {
			rt.Skip("no valid value in this draw")
		}
		verdicts, mutated := r.Check(p.gate, cs)
		bases := drawBases(p, cs, originals, verdicts)
		for i := range cs {
			for _, f := range judgeAll(&cs[i], bases[i], verdicts[i], mutated[i], opts) {
				if f.Blocking {
					rt.Fatalf("%s", f.Explain())
				}
			}
		}
	}), nil
}

// Differential returns a go test -fuzz target that feeds arbitrary argument text to the gate
// and to the oracle and fails where they disagree: the gate accepts text the oracle rejects, or
// rejects text the oracle accepts. Inputs whose meaning RFC 8259 leaves to the implementation
// (duplicate keys, a byte order mark, deep nesting, numbers beyond float64 precision) are
// skipped, so the target never blames a gate for a choice it may make.
func Differential(t tool.Tool, v validator.Validator, opts Options) (func(*testing.T, []byte), error) {
	p, skip := prepareOne(t, v, opts, nil)
	if skip != nil {
		return nil, errors.New(skip.String())
	}
	check := differential(p, newExecutor(opts, nil, nil), opts)
	return func(tt *testing.T, args []byte) {
		if implementationDefined(args) {
			tt.Skip("implementation-defined input")
		}
		if err := check(args); err != nil {
			tt.Fatal(err)
		}
	}, nil
}

// differential judges the gate's verdict on args against the oracle's.
func differential(p *prepared, r *execute.Executor, opts Options) func(args []byte) error {
	return func(args []byte) error {
		_, oerr := p.oracle.Parse(args)
		want := oerr == nil
		c := corpus.Case{Tool: p.tool.Name, Args: args, Class: "fuzz", Expect: corpus.Reject}
		if want {
			c.Expect = corpus.Accept
		}
		c = c.Seal()
		verdicts, mutated := r.Check(p.gate, []corpus.Case{c})
		var original any
		if want {
			original, _ = jsonvalue.Parse(args)
		}
		for _, f := range judgeAll(&c, basis{original: original, defaults: p.defaults, schema: p.schema},
			verdicts[0], mutated[0], opts) {
			if f.Blocking && f.Kind != report.ImpreciseLocation {
				why := ""
				if oerr != nil {
					why = "\n  the oracle says: " + oerr.Error()
				}
				return fmt.Errorf("%s%s", f.Explain(), why)
			}
		}
		return nil
	}
}

// implementationDefined reports text whose verdict RFC 8259 leaves to the implementation.
func implementationDefined(args []byte) bool {
	if bytes.HasPrefix(args, []byte("\xef\xbb\xbf")) {
		return true
	}
	v, err := jsonvalue.Parse(args)
	var se *jsonvalue.SyntaxError
	if errors.As(err, &se) &&
		(strings.HasPrefix(se.Msg, "duplicate key") || strings.HasPrefix(se.Msg, "nesting deeper")) {
		return true
	}
	if err != nil {
		return false
	}
	// Numbers a float64 cannot hold exactly are read differently by different parsers.
	inexact := false
	var walk func(v any)
	walk = func(v any) {
		switch c := v.(type) {
		case map[string]any:
			for _, e := range c {
				walk(e)
			}
		case []any:
			for _, e := range c {
				walk(e)
			}
		case json.Number:
			f, err := strconv.ParseFloat(string(c), 64)
			r, ok := new(big.Rat).SetString(string(c))
			if err != nil || !ok {
				inexact = true
				return
			}
			if fr := new(big.Rat).SetFloat64(f); fr == nil || fr.Cmp(r) != 0 {
				inexact = true
			}
		case string:
			if strings.ContainsRune(c, '\uFFFD') {
				inexact = true // a lone surrogate escape, decoded differently by different parsers
			}
		}
	}
	walk(v)
	return inexact
}

// FuzzSeeds returns argument texts to seed a fuzz target for t: valid values and distortions
// from the generator (seeds 0..n-1), and the saved cases of t in dir (if any).
func FuzzSeeds(t tool.Tool, n int, dir string, opts Options) ([][]byte, error) {
	cs, _ := Generate([]tool.Tool{t},
		GenOptions{N: n, Valid: true, Mutated: true, Mutators: opts.Mutators, Close: opts.Close})
	var out [][]byte
	for _, c := range cs {
		out = append(out, c.Args)
	}
	saved, err := corpus.Load(dir)
	if err != nil {
		return out, err
	}
	for _, c := range saved {
		if c.Tool == t.Name {
			out = append(out, c.Args)
		}
	}
	return out, nil
}

// WriteFuzzCorpus writes argument texts as a Go fuzz corpus for a target taking one []byte
// (Differential): dir/testdata/fuzz/NAME/<hash>, in the "go test fuzz v1" format, so that plain
// go test replays them and go test -fuzz starts from them.
func WriteFuzzCorpus(dir, name string, args [][]byte) error {
	out := filepath.Join(dir, "testdata", "fuzz", name)
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, a := range args {
		id := corpus.ComputeID(name, "fuzz", "", a)
		data := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(a)))
		tmp := filepath.Join(out, "."+id+".tmp")
		if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, filepath.Join(out, id)); err != nil {
			return err
		}
	}
	return nil
}
