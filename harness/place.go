package harness

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator/oracle"
)

// schemaPlace is the JSON Pointer, in the parameters schema gk was compiled from, of what f is
// about. For a distortion it is the keyword the oracle finds the arguments break at the
// distortion's place (the keyword the case names first, the distortion's own path next), else
// the subschema its path leads to; for a valid case, the subschema at the path of the gate's
// first issue. ok is false when there is no such place beyond the schema's root, or when it lies
// outside the tool's schema document; and for arguments that are not JSON (a raw text
// distortion is about the text, not the schema).
func schemaPlace(gk *oracle.Gatekeeper, f report.Finding) (string, bool) {
	v, err := jsonvalue.Parse(f.Args)
	if err != nil {
		return "", false
	}
	root := gk.Schema()
	doc, _, _ := strings.Cut(root.Location, "#")
	params, err := jsonvalue.Parse(gk.Tool().Parameters)
	if err != nil {
		return "", false
	}
	if f.Class != corpus.Valid {
		if p, ok := keywordPlace(root, doc, v, f); ok {
			return p, true
		}
		return subschemaPlace(root, doc, params, v, f.Path, f.Keyword)
	}
	for _, is := range f.Issues {
		if is.Path != "" {
			return subschemaPlace(root, doc, params, v, is.Path, is.Keyword)
		}
	}
	return "", false
}

// keywordPlace is where in the schema document doc the keyword lies whose error, when root
// validates v, is the finding's: of the errors at a place the case locates (corpus.Case.Locates),
// one of the case's keyword first, then one at the case's own path; among equals, the least
// JSON Pointer (byte order). The branches of an anyOf or oneOf the value fails at the choice's own
// place are not places of their own: the choice is.
func keywordPlace(root *jsonschema.Schema, doc string, v any, f report.Finding) (string, bool) {
	var ve *jsonschema.ValidationError
	if !errors.As(root.Validate(v), &ve) {
		return "", false
	}
	best, bestRank := "", -1
	var visit func(e *jsonschema.ValidationError)
	visit = func(e *jsonschema.ValidationError) {
		at := jsonvalue.Pointer(e.InstanceLocation)
		for _, c := range e.Causes {
			if choice(e.ErrorKind) && jsonvalue.Pointer(c.InstanceLocation) == at {
				// A branch the value fails where the anyOf/oneOf is: the place is the choice,
				// not one branch's keyword (the first branch's type, for a value of another).
				continue
			}
			visit(c)
		}
		kw, toks := keywordOf(e.ErrorKind)
		if kw == "" || !f.Locates(at) {
			return
		}
		loc, ok := inDocument(e.SchemaURL, doc)
		if !ok {
			return
		}
		loc += jsonvalue.Pointer(toks)
		rank := 0
		if kw == f.Keyword {
			rank += 2
		}
		if at == f.Path {
			rank++
		}
		if rank > bestRank || rank == bestRank && loc < best {
			best, bestRank = loc, rank
		}
	}
	visit(ve)
	return best, bestRank >= 0 && best != ""
}

// choice reports whether k is an anyOf or oneOf that no (or, for oneOf, more than one) branch
// of holds.
func choice(k jsonschema.ErrorKind) bool {
	switch k.(type) {
	case *kind.AnyOf, *kind.OneOf:
		return true
	}
	return false
}

// keywordOf is the keyword of an error kind as the issues name it, and the tokens of its place
// below the schema that holds it; "" for the kinds that only group others.
func keywordOf(k jsonschema.ErrorKind) (string, []string) {
	switch k := k.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf, *kind.RefCycle, *kind.InvalidJsonValue:
		return "", nil
	case *kind.FalseSchema:
		return "false", nil
	case *kind.Not:
		return "not", []string{"not"}
	case *kind.Dependency:
		return "dependencies", []string{"dependencies", k.Prop}
	}
	toks := k.KeywordPath()
	if len(toks) == 0 {
		return "", nil
	}
	return toks[0], toks
}

// inDocument is the JSON Pointer of a schema location in the document doc (a URL without
// fragment); false for a location in another document.
func inDocument(loc, doc string) (string, bool) {
	frag, ok := strings.CutPrefix(loc, doc+"#")
	if !ok {
		return "", false
	}
	p, err := url.PathUnescape(frag)
	if err != nil {
		return "", false
	}
	return p, true
}

// subschemaPlace is the location of the subschema the instance path leads to in root, the
// deepest one it reaches (v is the instance, to tell an object's key from an array's index), or
// of its member keyword when it (or the schema its $ref leads to) has one; false when that is
// the root itself, or lies outside the schema document doc (params).
func subschemaPlace(root *jsonschema.Schema, doc string, params, v any, path, keyword string) (string, bool) {
	toks, err := jsonvalue.SplitPointer(path)
	if err != nil {
		return "", false
	}
	s := root
	for _, tok := range toks {
		next := childSchema(s, tok, v, false, map[*jsonschema.Schema]bool{})
		if next == nil {
			next = childSchema(s, tok, v, true, map[*jsonschema.Schema]bool{})
		}
		if next == nil {
			break
		}
		s, v = next, member(v, tok)
	}
	loc, ok := inDocument(s.Location, doc)
	if !ok {
		return "", false
	}
	// The keyword where the subschema has it, or the schema its $ref leads to.
	for r, seen := s, map[*jsonschema.Schema]bool{}; r != nil && keyword != "" && !seen[r]; r = r.Ref {
		seen[r] = true
		at, ok := inDocument(r.Location, doc)
		if !ok {
			break
		}
		if obj, isObj := get(params, at).(map[string]any); isObj {
			if _, has := obj[keyword]; has {
				return at + "/" + jsonvalue.EscapeToken(keyword), true
			}
		}
	}
	return loc, loc != ""
}

func get(v any, p string) any {
	x, _ := jsonvalue.Get(v, p)
	return x
}

// member is the value at tok in v, nil when v has none.
func member(v any, tok string) any {
	switch c := v.(type) {
	case map[string]any:
		return c[tok]
	case []any:
		if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(c) {
			return c[i]
		}
	}
	return nil
}

// childSchema is the schema s gives the member tok of an instance v (an array's item when v is
// an array, else an object's member), searching the schemas s applies too ($ref, allOf, anyOf,
// oneOf, then, else) when s itself has none: with loose, the schemas of members not named
// (additionalProperties, items), else only those named (properties, patternProperties,
// prefixItems, an items array).
func childSchema(s *jsonschema.Schema, tok string, v any, loose bool,
	seen map[*jsonschema.Schema]bool) *jsonschema.Schema {
	if s == nil || seen[s] {
		return nil
	}
	seen[s] = true
	if _, isArray := v.([]any); isArray {
		if c := itemSchema(s, tok, loose); c != nil {
			return c
		}
	} else if c := propertySchema(s, tok, loose); c != nil {
		return c
	}
	applied := []*jsonschema.Schema{s.Ref, s.RecursiveRef}
	if s.DynamicRef != nil {
		applied = append(applied, s.DynamicRef.Ref)
	}
	applied = append(append(append(applied, s.AllOf...), s.AnyOf...), s.OneOf...)
	for _, a := range append(applied, s.Then, s.Else) {
		if c := childSchema(a, tok, v, loose, seen); c != nil {
			return c
		}
	}
	return nil
}

// propertySchema is the schema s itself gives the object member tok.
func propertySchema(s *jsonschema.Schema, tok string, loose bool) *jsonschema.Schema {
	if !loose {
		if p := s.Properties[tok]; p != nil {
			return p
		}
		var pats []jsonschema.Regexp
		for re := range s.PatternProperties {
			pats = append(pats, re)
		}
		slices.SortFunc(pats, func(a, b jsonschema.Regexp) int { return strings.Compare(a.String(), b.String()) })
		for _, re := range pats {
			if re.MatchString(tok) {
				return s.PatternProperties[re]
			}
		}
		return nil
	}
	ap, _ := s.AdditionalProperties.(*jsonschema.Schema)
	return ap
}

// itemSchema is the schema s itself gives the array item at index tok.
func itemSchema(s *jsonschema.Schema, tok string, loose bool) *jsonschema.Schema {
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 {
		return nil
	}
	tuple, _ := s.Items.([]*jsonschema.Schema)
	if !loose {
		switch {
		case i < len(s.PrefixItems):
			return s.PrefixItems[i]
		case i < len(tuple):
			return tuple[i]
		}
		return nil
	}
	if it, ok := s.Items.(*jsonschema.Schema); ok {
		return it
	}
	if s.Items2020 != nil {
		return s.Items2020
	}
	ai, _ := s.AdditionalItems.(*jsonschema.Schema)
	return ai
}

// placeFindings sets the Place of each of fs, the schema place it is about (schemaPlace): the
// findings of a tool are one per class, kind and place.
func placeFindings(p *prepared, fs []report.Finding) {
	for i := range fs {
		fs[i].Place = p.places.of(p.oracle, fs[i])
	}
}

// placeMemo keeps the schema place found for each class, path and keyword of a tool's findings
// (and, for a valid case, the path and keyword of the gate's first issue): the first finding
// with them decides it, so that a tool whose gate fails thousands of cases looks each place up
// once. A tool's cases are judged in the order drawn, so the same seed gives the same places.
type placeMemo struct {
	mu sync.Mutex
	at map[string]string
}

func (m *placeMemo) of(gk *oracle.Gatekeeper, f report.Finding) string {
	key := string(f.Class) + "\x00" + f.Path + "\x00" + f.Keyword
	if f.Class == corpus.Valid && len(f.Issues) > 0 {
		key += "\x00" + f.Issues[0].Path + "\x00" + f.Issues[0].Keyword
	}
	if _, err := jsonvalue.Parse(f.Args); err != nil {
		key += "\x00text" // arguments that are not JSON have no place in the schema
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if at, ok := m.at[key]; ok {
		return at
	}
	at, _ := schemaPlace(gk, f)
	m.at[key] = at
	return at
}
