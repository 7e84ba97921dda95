// Package impls holds the validator implementations of the zoo, each wrapping
// one third-party Go library (or encoding/json) behind server.Impl.
package impls

import (
	"errors"
	"net/http"

	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

// The libraries fetch remote $refs over HTTP on their own (gojsonschema at
// compile time, qri and kaptinlin while validating), all through
// http.DefaultTransport. The zoo is offline and deterministic: every request
// fails at once, so a remote reference behaves as an unreachable one.
func init() {
	http.DefaultTransport = offlineTransport{}
}

type offlineTransport struct{}

func (offlineTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("toolproof-zoo does not fetch remote schemas")
}

// All returns the implementations in the order `toolproof-zoo list` shows.
func All() []server.Impl {
	return []server.Impl{goJSONSchema, jsonSchemaGo, qriJSONSchema, kaptinlinJSONSchema, jsonStruct, jsonStructStrict}
}

// Lookup finds an implementation by name.
func Lookup(name string) (server.Impl, bool) {
	for _, impl := range All() {
		if impl.Name == name {
			return impl, true
		}
	}
	return server.Impl{}, false
}
