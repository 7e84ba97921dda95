package corpus_test

import (
	"fmt"

	"github.com/toolproof/toolproof/corpus"
)

// A gate locates a distortion when one of its issues is at the distorted place, inside it, or
// above it no higher than the case's scope: here the object that lacks the key.
func ExampleCase_Locates() {
	c := corpus.Case{Class: "missing_required", Path: "/user/name", Scope: "/user", Keyword: "required"}
	for _, at := range []string{"/user/name", "/user", "", "/user/email"} {
		fmt.Printf("%q: %v\n", at, c.Locates(at))
	}
	// Output:
	// "/user/name": true
	// "/user": true
	// "": false
	// "/user/email": false
}
