package stdio

import (
	"unicode/utf8"

	"github.com/toolproof/toolproof/validator"
)

// fastResult reads the common result shapes without building a generic JSON value:
// {"op":"result","id":N,"valid":BOOL,"issues":[{"path":S,"message":S,"keyword":S},...]} with
// keys in any order and strings free of escapes. Anything else (value, error, escapes, other
// keys, repeated keys, odd numbers) reports false and goes through the full parser, which is
// the reference: whenever fastResult reports true, the full path gives the same id and verdict.
func fastResult(line []byte) (uint64, validator.Verdict, bool) {
	s := scanner{b: line}
	var (
		id                              uint64
		valid                           bool
		issues                          []validator.Issue
		hasOp, hasID, hasValid, hasList bool
	)
	if !s.byte('{') {
		return 0, validator.Verdict{}, false
	}
	for {
		key, ok := s.raw()
		if !ok || !s.byte(':') {
			return 0, validator.Verdict{}, false
		}
		switch string(key) {
		case "op":
			op, ok := s.raw()
			if hasOp || !ok || string(op) != "result" {
				return 0, validator.Verdict{}, false
			}
			hasOp = true
		case "id":
			if hasID {
				return 0, validator.Verdict{}, false
			}
			if id, ok = s.uint(); !ok {
				return 0, validator.Verdict{}, false
			}
			hasID = true
		case "valid":
			if hasValid {
				return 0, validator.Verdict{}, false
			}
			if valid, ok = s.bool(); !ok {
				return 0, validator.Verdict{}, false
			}
			hasValid = true
		case "issues":
			if hasList {
				return 0, validator.Verdict{}, false
			}
			if issues, ok = s.issues(); !ok {
				return 0, validator.Verdict{}, false
			}
			hasList = true
		default:
			return 0, validator.Verdict{}, false
		}
		if s.byte(',') {
			continue
		}
		if s.byte('}') {
			break
		}
		return 0, validator.Verdict{}, false
	}
	s.space()
	if s.i != len(s.b) || !hasOp || !hasID || !hasValid || (valid && hasList) {
		return 0, validator.Verdict{}, false
	}
	if valid {
		return id, validator.Accept(), true
	}
	return id, validator.Verdict{Issues: issues}, true
}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// byte skips white space and then c, if c is there.
func (s *scanner) byte(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes.
func (s *scanner) str() (string, bool) {
	b, ok := s.raw()
	return string(b), ok
}

// raw reads a string without escapes and returns its bytes, valid UTF-8.
func (s *scanner) raw() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start, ascii := s.i, true
	for ; s.i < len(s.b); s.i++ {
		c := s.b[s.i]
		switch {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			if !ascii && !utf8.Valid(v) {
				return nil, false
			}
			return v, true
		case c < 0x20 || c == '\\':
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

// uint reads a non-negative integer written without fraction or exponent.
func (s *scanner) uint() (uint64, bool) {
	s.space()
	start := s.i
	var n uint64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		n = n*10 + uint64(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 19 || (digits > 1 && s.b[start] == '0') {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	return n, true
}

func (s *scanner) bool() (bool, bool) {
	s.space()
	rest := s.b[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.i += 5
		return false, true
	}
	return false, false
}

// issues reads an array of flat issue objects.
func (s *scanner) issues() ([]validator.Issue, bool) {
	if !s.byte('[') {
		return nil, false
	}
	issues := []validator.Issue{}
	if s.byte(']') {
		return issues, true
	}
	for {
		if !s.byte('{') {
			return nil, false
		}
		var is validator.Issue
		var seen [3]bool
		if !s.byte('}') {
			for {
				key, ok := s.raw()
				if !ok || !s.byte(':') {
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
				if s.byte(',') {
					continue
				}
				if s.byte('}') {
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
		if s.byte(',') {
			continue
		}
		if s.byte(']') {
			return issues, true
		}
		return nil, false
	}
}
