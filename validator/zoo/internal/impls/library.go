package impls

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

// compiled is the Compile of a library adapter: the tool's schema compiled once with the
// library's compile, each call then judged by validate against what it made.
func compiled[S any](compile func(json.RawMessage) (S, error),
	validate func(S, []byte) (server.Verdict, error)) func(json.RawMessage) (server.Validator, error) {
	return func(schema json.RawMessage) (server.Validator, error) {
		s, err := compile(schema)
		if err != nil {
			return nil, err
		}
		return validatorFunc(func(raw []byte) (server.Verdict, error) { return validate(s, raw) }), nil
	}
}

// validatorFunc is a server.Validator made of a function.
type validatorFunc func(raw []byte) (server.Verdict, error)

// Validate calls f.
func (f validatorFunc) Validate(raw []byte) (server.Verdict, error) { return f(raw) }

// rejected is the verdict of arguments found invalid for the issues given.
func rejected(issues []server.Issue) server.Verdict {
	return server.Verdict{Valid: false, Issues: issues}
}

// decodeArgs decodes the arguments into Go values with encoding/json (numbers as float64), as
// the libraries that validate Go values, not JSON text, are handed them. Arguments that passed
// the gate fail only on a number float64 cannot hold (1e400): that is lib's rejection, returned
// as the verdict.
func decodeArgs(lib string, raw []byte) (any, *server.Verdict) {
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		v := rejected([]server.Issue{{Path: "",
			Message: lib + ": arguments cannot be decoded into Go values (" + decodeErrorKind(err) + ")"}})
		return nil, &v
	}
	return doc, nil
}

// decodeErrorKind describes an encoding/json decode error without its text,
// which quotes the offending value.
func decodeErrorKind(err error) string {
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		return "a JSON " + firstWord(ute.Value) + " does not fit Go type " + ute.Type.String()
	}
	return fmt.Sprintf("%T", err)
}

func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

// errorKind describes an error by its Go type only (its text may quote input).
func errorKind(err error) string {
	return fmt.Sprintf("%T", err)
}
