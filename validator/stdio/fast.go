package stdio

import (
	"slices"
	"unicode/utf8"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
)

// fastResultIn is fastResult taking the strings and slices of issues from in, when not nil.
func fastResultIn(line []byte, in *interner) (uint64, validator.Verdict, bool) {
	if id, v, ok := canonicalResult(line, in); ok {
		return id, v, true
	}
	s := scanner{Scanner: jsonvalue.Scanner{B: line}, in: in}
	var f resultFields
	if !s.Byte('{') {
		return 0, validator.Verdict{}, false
	}
	for {
		key, ok := s.raw()
		if !ok || !s.Byte(':') || !f.read(&s, key) {
			return 0, validator.Verdict{}, false
		}
		if s.Byte(',') {
			continue
		}
		if s.Byte('}') {
			break
		}
		return 0, validator.Verdict{}, false
	}
	s.Space()
	if s.I != len(s.B) || !f.hasOp || !f.hasID || !f.hasValid || (f.valid && f.hasList) {
		return 0, validator.Verdict{}, false
	}
	if f.valid {
		return f.id, validator.Accept(), true
	}
	return f.id, validator.Verdict{Issues: f.issues}, true
}

// resultFields are the members of a result fastResultIn has read.
type resultFields struct {
	id                              uint64
	valid                           bool
	issues                          []validator.Issue
	hasOp, hasID, hasValid, hasList bool
}

// read reads the value of member key; false for a member fastResult does not take, a
// repeated one, or a value not of its shape.
func (f *resultFields) read(s *scanner, key []byte) bool {
	var ok bool
	switch string(key) {
	case "op":
		op, isString := s.raw()
		if f.hasOp || !isString || string(op) != "result" {
			return false
		}
		f.hasOp = true
		return true
	case "id":
		if f.hasID {
			return false
		}
		f.id, ok = s.Uint(19)
		f.hasID = true
	case "valid":
		if f.hasValid {
			return false
		}
		f.valid, ok = s.Bool()
		f.hasValid = true
	case "issues":
		if f.hasList {
			return false
		}
		f.issues, ok = s.issues()
		f.hasList = true
	default:
		return false
	}
	return ok
}

// canonicalResult reads results written the way the Node.js adapters and most others write
// them: keys op, id, valid and issues in this order, without white space. It is fastResult's
// shortcut and gives the same answers where it reports true.
func canonicalResult(line []byte, in *interner) (uint64, validator.Verdict, bool) {
	const (
		head    = `{"op":"result","id":`
		valid   = `,"valid":true}`
		invalid = `,"valid":false,"issues":`
	)
	if len(line) < len(head) || string(line[:len(head)]) != head {
		return 0, validator.Verdict{}, false
	}
	s := scanner{Scanner: jsonvalue.Scanner{B: line, I: len(head)}, in: in}
	if s.I < len(s.B) && (s.B[s.I] < '0' || s.B[s.I] > '9') {
		return 0, validator.Verdict{}, false // white space, a sign: the general path decides
	}
	id, ok := s.Uint(19)
	if !ok {
		return 0, validator.Verdict{}, false
	}
	rest := line[s.I:]
	if string(rest) == valid {
		return id, validator.Accept(), true
	}
	if len(rest) < len(invalid) || string(rest[:len(invalid)]) != invalid {
		return 0, validator.Verdict{}, false
	}
	s.I += len(invalid)
	issues, ok := s.issues()
	if !ok || s.I+1 != len(s.B) || s.B[s.I] != '}' {
		return 0, validator.Verdict{}, false
	}
	return id, validator.Verdict{Issues: issues}, true
}

type scanner struct {
	jsonvalue.Scanner
	in *interner // nil: strings are allocated
}

// str reads a string without escapes.
func (s *scanner) str() (string, bool) {
	b, ok := s.raw()
	if !ok {
		return "", false
	}
	return s.in.get(b), true
}

// raw reads a string without escapes and returns its bytes, valid UTF-8.
func (s *scanner) raw() ([]byte, bool) {
	if !s.Byte('"') {
		return nil, false
	}
	start := s.I
	for s.I < len(s.B) && jsonvalue.IsPlain(s.B[s.I]) {
		s.I++
	}
	if s.I < len(s.B) && s.B[s.I] == '"' { // plain ASCII
		s.I++
		return s.B[start : s.I-1], true
	}
	for ; s.I < len(s.B); s.I++ {
		c := s.B[s.I]
		switch {
		case c == '"':
			v := s.B[start:s.I]
			s.I++
			if !utf8.Valid(v) {
				return nil, false
			}
			return v, true
		case c < 0x20 || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// interner hands out one string for equal byte strings, so that the paths, messages and
// keywords an adapter repeats are allocated once, and carves the issue lists of many results
// out of one allocation. It is not safe for concurrent use; a nil interner allocates each
// string and list.
type interner struct {
	m       map[string]string
	scratch []validator.Issue // where a list is collected
	slab    []validator.Issue // where lists are kept: only its free end is handed out
}

const issueSlab = 256 // issues in one allocation

// issues keeps the list collected in list (s.in.scratch when in is not nil) and returns it; it
// is never nil.
func (in *interner) issues(list []validator.Issue) []validator.Issue {
	if in == nil {
		if list == nil {
			return []validator.Issue{}
		}
		return list
	}
	in.scratch = list[:0] // keep what append grew
	n := len(list)
	if n > issueSlab/4 {
		return slices.Clone(list)[:n:n] // not nil: list is not empty
	}
	if cap(in.slab)-len(in.slab) < n || in.slab == nil {
		in.slab = make([]validator.Issue, 0, issueSlab)
	}
	start := len(in.slab)
	in.slab = append(in.slab, list...)
	return in.slab[start : start+n : start+n]
}

const (
	internMax    = 4096 // strings kept; then the table starts again
	internLength = 128  // longest string kept
)

func (in *interner) get(b []byte) string {
	if in == nil || len(b) > internLength {
		return string(b)
	}
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	if in.m == nil || len(in.m) >= internMax {
		in.m = make(map[string]string, 64)
	}
	s := string(b)
	in.m[s] = s
	return s
}

// issues reads an array of flat issue objects.
func (s *scanner) issues() ([]validator.Issue, bool) {
	if !s.Byte('[') {
		return nil, false
	}
	var issues []validator.Issue
	if s.in != nil {
		issues = s.in.scratch[:0]
	}
	if s.Byte(']') {
		return s.in.issues(issues), true
	}
	for {
		if !s.Byte('{') {
			return nil, false
		}
		var is validator.Issue
		var seen [3]bool
		if !s.Byte('}') {
			for {
				key, ok := s.raw()
				if !ok || !s.Byte(':') {
					return nil, false
				}
				var k int
				var dst *string
				switch string(key) {
				case "path":
					k, dst = 0, &is.Path
				case "message":
					k, dst = 1, &is.Message
				case "keyword":
					k, dst = 2, &is.Keyword
				default:
					return nil, false
				}
				if seen[k] {
					return nil, false
				}
				seen[k] = true
				if *dst, ok = s.str(); !ok {
					return nil, false
				}
				if s.Byte(',') {
					continue
				}
				if s.Byte('}') {
					break
				}
				return nil, false
			}
		}
		if is.Path == "/" {
			is.Path = ""
		}
		if is.Path != "" && is.Path[0] != '/' {
			return nil, false // the full path reports the protocol error
		}
		issues = append(issues, is)
		if s.Byte(',') {
			continue
		}
		if s.Byte(']') {
			return s.in.issues(issues), true
		}
		return nil, false
	}
}
