package stdio

import (
	"errors"
	"fmt"
	"strings"
)

// ParseCommand splits a command line into words with simple shell quoting: 'single quotes'
// keep everything, "double quotes" allow \" \\ \$ \` escapes, and a backslash outside quotes
// keeps the next character. There is no expansion of variables, globs or ~.
func ParseCommand(spec string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'':
			j := strings.IndexByte(spec[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("command %q: unterminated single quote", spec)
			}
			cur.WriteString(spec[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case '"':
			i++
			for ; i < len(spec) && spec[i] != '"'; i++ {
				if spec[i] == '\\' && i+1 < len(spec) && strings.IndexByte("\"\\$`\n", spec[i+1]) >= 0 {
					i++
					if spec[i] == '\n' {
						continue // line continuation
					}
				}
				cur.WriteByte(spec[i])
			}
			if i >= len(spec) {
				return nil, fmt.Errorf("command %q: unterminated double quote", spec)
			}
			inWord = true
		case '\\':
			if i+1 >= len(spec) {
				return nil, fmt.Errorf("command %q: backslash at the end", spec)
			}
			i++
			if spec[i] == '\n' {
				continue // line continuation
			}
			cur.WriteByte(spec[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}
