package mcp

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// ParseHeaders reads --header values, each "NAME: VALUE", into the headers sent on every HTTP
// request to a server. $VAR and ${VAR} in a value are read from the environment with lookup
// ("Authorization: Bearer $TOKEN"; $$ is a dollar sign). Errors name the header by its position and
// name, never its value: header values are secrets (tokens) and appear in no report, log or error.
func ParseHeaders(specs []string, lookup func(string) (string, bool)) (http.Header, error) {
	h := http.Header{}
	for i, spec := range specs {
		name, value, ok := strings.Cut(spec, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("--header #%d: want 'NAME: VALUE' (the value is not shown)", i+1)
		}
		if !validHeaderName(name) {
			return nil, fmt.Errorf("--header #%d: %q is not a header name (letters, digits and !#$%%&'*+-.^_`|~)",
				i+1, name)
		}
		value, err := expandEnv(strings.TrimSpace(value), lookup)
		if err != nil {
			return nil, fmt.Errorf("--header %s: %v", name, err)
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return nil, fmt.Errorf("--header %s: the value holds a line break or NUL (the value is not shown)", name)
		}
		h.Add(name, value)
	}
	return h, nil
}

// envRefs are $NAME and ${NAME} in a header value; $$ is a dollar sign.
var envRefs = regexp.MustCompile(`\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// expandEnv replaces $NAME and ${NAME} with the variable's value; an unset variable is an
// error (a token that silently became empty would fail later, less clearly).
func expandEnv(v string, lookup func(string) (string, bool)) (string, error) {
	var missing string
	out := envRefs.ReplaceAllStringFunc(v, func(ref string) string {
		if ref == "$$" {
			return "$"
		}
		m := envRefs.FindStringSubmatch(ref)
		name := m[1] + m[2]
		got, ok := lookup(name)
		if !ok && missing == "" {
			missing = name
		}
		return got
	})
	if missing != "" {
		return "", fmt.Errorf("the environment has no variable %s", missing)
	}
	return out, nil
}

func validHeaderName(n string) bool {
	for _, r := range n {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}
