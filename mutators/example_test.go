package mutators_test

import (
	"fmt"

	"github.com/toolproof/toolproof/mutators"
)

// Select takes the classes a run should use, by name; "" or "all" is every mutator, and an
// unknown name is an error that lists the classes.
func ExampleSelect() {
	ms, err := mutators.Select("stringified_type,null_value")
	if err != nil {
		panic(err)
	}
	for _, m := range ms {
		fmt.Println(m.Class())
	}
	all, _ := mutators.Select("all")
	fmt.Println(len(all) == len(mutators.All()))
	_, err = mutators.Select("stringify")
	fmt.Println(err != nil)
	// Output:
	// stringified_type
	// null_value
	// true
	// true
}
