package uniq_test

import (
	"fmt"
	"testing"

	"github.com/toolproof/toolproof/internal/uniq"
)

func TestOfKeepsFirstOrder(t *testing.T) {
	got := uniq.Of([]string{"b", "a", "b", "c", "a"})
	if fmt.Sprint(got) != "[b a c]" {
		t.Fatalf("uniq.Of = %v, want [b a c]", got)
	}
	if uniq.Of([]string(nil)) != nil {
		t.Fatal("uniq.Of(nil) is not nil")
	}
}

func ExampleOf() {
	fmt.Println(uniq.Of([]int{3, 1, 3, 2, 1}))
	// Output: [3 1 2]
}
