package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Redacted is what a secret becomes where toolproof records how it was invoked: a --header
// value (RedactHeaderSpec), a URL's password and query values (RedactURL).
const Redacted = "<redacted>"

// RedactURL is a server URL as toolproof shows it anywhere (messages, the validator's name, the
// commands and sources of a report): the password (a user name with no password, which may be a
// token, whole) and each query value replaced by Redacted, the fragment dropped:
// http://user:<redacted>@host/mcp?api_key=<redacted>. Text that is no URL with a host is
// Redacted whole.
func RedactURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return Redacted
	}
	var b strings.Builder
	b.WriteString(u.Scheme + "://")
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			b.WriteString(url.User(u.User.Username()).String() + ":")
		}
		b.WriteString(Redacted + "@")
	}
	b.WriteString(u.Host + u.EscapedPath())
	if u.RawQuery != "" {
		for i, part := range strings.Split(u.RawQuery, "&") {
			b.WriteString(map[bool]string{true: "?", false: "&"}[i == 0])
			if key, _, ok := strings.Cut(part, "="); ok {
				b.WriteString(key + "=")
			}
			b.WriteString(Redacted)
		}
	}
	return b.String()
}

// RedactHeaderSpec is a --header argument as toolproof records it (the command that repeats a
// run): the name, an Authorization scheme (Bearer, Basic) and $VAR references kept, every other
// word of the value Redacted ("Authorization: Bearer <redacted>"). An argument with no colon is
// Redacted whole.
func RedactHeaderSpec(spec string) string {
	name, value, ok := strings.Cut(spec, ":")
	if !ok {
		return Redacted
	}
	words := strings.Fields(value)
	for i, w := range words {
		if !(i == 0 && len(words) > 1 && isAuthHeader(name)) && !onlyEnvRefs(w) {
			words[i] = Redacted
		}
	}
	return name + ": " + strings.Join(words, " ")
}

// onlyEnvRefs says whether w is made of $NAME and ${NAME} references alone (no secret in it).
func onlyEnvRefs(w string) bool {
	return w != "" && strings.TrimSpace(envRefs.ReplaceAllStringFunc(w, func(ref string) string {
		if ref == "$$" {
			return "$$"
		}
		return ""
	})) == ""
}

// isAuthHeader: a header whose value begins with an authentication scheme, which is no secret.
func isAuthHeader(name string) bool {
	n := strings.TrimSpace(name)
	return strings.EqualFold(n, "Authorization") || strings.EqualFold(n, "Proxy-Authorization")
}

// redactor replaces the header values, and each word of them, in any text toolproof passes on
// from the server (answers, status lines, error messages, notes). Words of minSecret bytes or
// more are replaced wherever they occur; shorter ones (a tenant "ab", a flag "1") only as whole
// words, so that they leave other text alone.
type redactor struct {
	long  [][]byte // longest first
	short [][]byte // longest first
}

// minSecret is the shortest word of a header value that is replaced inside other words too.
const minSecret = 6

// redactedValue is what a header value becomes in text passed on from the server.
const redactedValue = "[header value]"

func newRedactor(h http.Header) *redactor {
	seen := map[string]bool{}
	r := &redactor{}
	add := func(s string) {
		if s == "" || seen[s] {
			return
		}
		seen[s] = true
		forms := [][]byte{[]byte(s)}
		if q, _ := json.Marshal(s); !bytes.Equal(q[1:len(q)-1], []byte(s)) {
			forms = append(forms, q[1:len(q)-1])
		}
		if len(s) >= minSecret {
			r.long = append(r.long, forms...)
		} else {
			r.short = append(r.short, forms...)
		}
	}
	for name, vs := range h {
		for _, v := range vs {
			add(v)
			words := strings.Fields(v)
			for i, w := range words {
				if !(i == 0 && len(words) > 1 && isAuthHeader(name)) {
					add(w)
				}
			}
		}
	}
	longestFirst := func(s [][]byte) { sort.SliceStable(s, func(i, j int) bool { return len(s[i]) > len(s[j]) }) }
	longestFirst(r.long)
	longestFirst(r.short)
	return r
}

func (r *redactor) empty() bool { return r == nil || len(r.long)+len(r.short) == 0 }

// bytes is b with every secret replaced, b read as plain text.
func (r *redactor) bytes(b []byte) []byte {
	if r.empty() {
		return b
	}
	for _, s := range r.long {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, []byte(redactedValue))
		}
	}
	return replaceWords(b, r.short)
}

func (r *redactor) text(s string) string {
	if r.empty() {
		return s
	}
	return string(r.bytes([]byte(s)))
}

// message is a JSON text with the secrets replaced inside its strings only, so that it stays
// the same JSON (a header value "1" leaves "id":1 alone); text that is not JSON is read as
// plain text.
func (r *redactor) message(b []byte) []byte {
	if r.empty() || !json.Valid(b) {
		return r.bytes(b)
	}
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j := i + 1
		for b[j] != '"' {
			if b[j] == '\\' {
				j++
			}
			j++
		}
		if lit, changed := r.literal(b[i : j+1]); changed {
			out = append(append(out, b[last:i]...), lit...)
			last = j + 1
		}
		i = j
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// literal is a JSON string literal with the secrets in its text replaced, and whether any was.
func (r *redactor) literal(lit []byte) ([]byte, bool) {
	var s string
	if bytes.IndexByte(lit, '\\') < 0 {
		s = string(lit[1 : len(lit)-1])
	} else if json.Unmarshal(lit, &s) != nil {
		return lit, false
	}
	got := r.text(s)
	if got == s {
		return lit, false
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(got)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), true
}

// replaceWords replaces each of words (longest first) in b where it is a whole word: not next
// to a letter, digit, _ or a byte of a multi-byte character. One pass: what was replaced
// already (redactedValue) is left as it is.
func replaceWords(b []byte, words [][]byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if bytes.HasPrefix(b[i:], []byte(redactedValue)) {
			i += len(redactedValue) - 1
			continue
		}
		if i > 0 && wordByte(b[i-1]) && wordByte(b[i]) {
			continue
		}
		for _, w := range words {
			end := i + len(w)
			if !bytes.HasPrefix(b[i:], w) || (end < len(b) && wordByte(b[end]) && wordByte(w[len(w)-1])) {
				continue
			}
			out = append(append(out, b[last:i]...), redactedValue...)
			last = end
			i = end - 1
			break
		}
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

func wordByte(c byte) bool {
	return c >= 0x80 || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
