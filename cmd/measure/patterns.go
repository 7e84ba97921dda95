package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/toolproof/toolproof/harness/generate"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

// ownPatterns are patterns written to probe where ECMA-262 (with the u flag, as Ajv and
// TypeBox compile), Python's re and RE2 read a string differently: whitespace and line
// terminators, '.', anchors, \w \d \b, astral characters, negated classes.
var ownPatterns = []string{
	`^\s*$`, `^\S+$`, `^a\sb$`, `^[\s\S]*$`, `^[^\s]+$`, `\s`, `^.$`, `^.+$`, `^.{2,4}$`, `^.*x$`,
	`^[^a]$`, `^[^a-z]+$`, `^[^"]*$`, `^[^\n]*$`, `^[^,]+(,[^,]+)*$`, `^\w+$`, `^\W+$`, `^\d+$`,
	`^\D+$`, `^[^\d]+$`, `^[^\w]+$`, `\bfoo\b`, `^\w+\b.*$`, `^abc$`, `abc$`, `^abc`, `^$`,
	`^[a-z]+$`, `^[A-Za-z0-9_]+$`, `^[\w.-]+@[\w-]+\.[a-z]{2,}$`, `^\p{L}+$`, `^\P{L}+$`,
	`^[\p{L}\p{N}]+$`, `^\p{Lu}`, `^[^\p{L}]+$`, `^(?:[^\x00-\x7f])+$`, `^[\u0080-\uffff]+$`,
	`^[\x00-\x7f]*$`, `^[^\x00-\x1f]*$`, `^[ -~]*$`, `^\S{3}$`, `^(\S+\s)*\S+$`, `[^\s]$`,
	`^.{0,3}$`, `^[^.]+$`, `^.*$`, `(?s)^.*$`, `^[^/]+/[^/]+$`, `^\D{2}\d{2}$`, `^[^0-9]+$`,
	`^[^A-Z]+$`, `^[a-zA-Z ]+$`, `^[\t ]+$`, `^\x20+$`, `^[^\t\n\r ]+$`, `^\S*\s\S*$`,
	`^\d{4}-\d{2}-\d{2}$`, `^[0-9]{3}-[0-9]{3}-[0-9]{4}$`, `^[\p{Han}]+$`, `^\PL+$`,
}

// patterns draws n strings for every pattern found under the sources (JSON-Schema-Test-Suite
// directories, BFCL tool files) and for ownPatterns, as a string value and as an object key
// (patternProperties), and writes them as JSONL for independent regex engines to check
// (scripts/patterncheck.mjs, scripts/patterncheck.py).
func patterns(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("measure patterns", flag.ContinueOnError)
	n := fs.Int("n", 50, "strings drawn per pattern and place")
	dump := fs.String("dump", "", "JSONL file to write the strings to (required)")
	toolsOut := fs.String("tools", "",
		"also write every pattern as a tool (a string property with the pattern, an object with it as "+
			"patternProperties key) to this JSONL file, for `measure differential`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dump == "" {
		return fmt.Errorf("patterns: -dump FILE is required")
	}
	found, err := allPatterns(fs.Args())
	if err != nil {
		return err
	}
	f, err := os.Create(*dump)
	if err != nil {
		return err
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	var list []string
	for p := range found {
		list = append(list, p)
	}
	sort.Strings(list)
	var values, skipped int
	bySource := map[string]int{}
	for _, p := range list {
		pj, _ := json.Marshal(p)
		for _, where := range []string{"value", "key"} {
			strs, ok := patternStrings(p, string(pj), where, *n)
			if !ok {
				skipped++
				continue
			}
			for _, str := range strs {
				values++
				enc.Encode(map[string]string{"source": found[p], "pattern": p, "where": where, "value": str})
			}
		}
		bySource[strings.SplitN(found[p], ":", 2)[0]]++
	}
	if *toolsOut != "" {
		if err := writePatternTools(*toolsOut, list); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "patterns: %d (%v), %d distinct strings written to %s, %d pattern/place pairs the oracle or "+
		"generator could not use\n",
		len(list), bySource, values, *dump, skipped)
	return nil
}

// allPatterns is toolproof's own patterns and those of the sources, each with its first source.
func allPatterns(sources []string) (map[string]string, error) {
	found := map[string]string{} // pattern -> its first source
	add := func(p, src string) {
		if _, ok := found[p]; !ok {
			found[p] = src
		}
	}
	for _, p := range ownPatterns {
		add(p, "own")
	}
	for _, src := range sources {
		if err := collectPatterns(src, add); err != nil {
			return nil, err
		}
	}
	return found, nil
}

// patternStrings draws n values of a schema with the pattern (pj: the pattern as JSON) at a
// value or at a key (where), and returns the distinct strings it matched, in draw order; false
// when the oracle or the generator cannot use the schema.
func patternStrings(p, pj, where string, n int) ([]string, bool) {
	schema := `{"type":"string","pattern":` + pj + `}`
	if where == "key" {
		schema = `{"type":"object","patternProperties":{` + pj +
			`:{}},"additionalProperties":false,"minProperties":1,"maxProperties":1}`
	}
	gk, err := oracle.Compile(tool.Tool{Name: "pattern", Parameters: json.RawMessage(schema)})
	if err != nil {
		return nil, false
	}
	g, err := generate.New(gk)
	if err != nil {
		return nil, false
	}
	vs, _ := sample(g, n)
	seen := map[string]bool{}
	var out []string
	for _, v := range vs {
		s, ok := v.(string)
		if where == "key" {
			m, _ := v.(map[string]any)
			for k := range m {
				s, ok = k, true
			}
		}
		if !ok || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out, true
}

// writePatternTools writes one tool per pattern: {"s": string with the pattern (required),
// "k": object whose keys must match it}, closed.
func writePatternTools(path string, list []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for i, p := range list {
		params := map[string]any{"type": "object", "additionalProperties": false, "required": []string{"s"},
			"properties": map[string]any{
				"s": map[string]any{"type": "string", "pattern": p},
				"k": map[string]any{"type": "object", "additionalProperties": false,
					"patternProperties": map[string]any{p: map[string]any{"type": "integer"}}},
			}}
		if err := enc.Encode(map[string]any{"name": fmt.Sprintf("pattern_%d", i), "description": "pattern " + p,
			"parameters": params}); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// collectPatterns calls add for every "pattern" string and every patternProperties key in the
// JSON files under src (a directory of .json files, searched recursively, or one .json/.jsonl file).
func collectPatterns(src string, add func(p, src string)) error {
	var files []string
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	if info.IsDir() {
		err = filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && strings.HasSuffix(path, ".json") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return err
		}
	} else {
		files = []string{src}
	}
	label := "suite"
	if strings.Contains(src, "bfcl") {
		label = "bfcl"
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		docs := [][]byte{data}
		if strings.HasSuffix(file, ".jsonl") {
			docs = nil
			for _, line := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(line) != "" {
					docs = append(docs, []byte(line))
				}
			}
		}
		for _, d := range docs {
			var v any
			if err := json.Unmarshal(d, &v); err != nil {
				return fmt.Errorf("%s: %v", file, err)
			}
			walkPatterns(v, func(p string) {
				if _, err := regexp.Compile(p); err == nil {
					add(p, label+":"+filepath.Base(file))
				}
			})
		}
	}
	return nil
}

func walkPatterns(v any, fn func(string)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "pattern" {
				fn(s)
			}
			if pp, ok := x.(map[string]any); ok && k == "patternProperties" {
				for p := range pp {
					fn(p)
				}
			}
			walkPatterns(x, fn)
		}
	case []any:
		for _, x := range v {
			walkPatterns(x, fn)
		}
	}
}
