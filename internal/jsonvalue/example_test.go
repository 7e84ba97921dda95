package jsonvalue_test

import (
	"fmt"

	"github.com/toolproof/toolproof/internal/jsonvalue"
)

// ScanNumber reads one number where it starts and says where it ends; what comes after it is
// the caller's to judge.
func ExampleScanNumber() {
	for _, text := range []string{`[-12.5e+3,true]`, `[01]`, `[1.]`, `[-]`} {
		end, msg := jsonvalue.ScanNumber(text, 1)
		fmt.Printf("%s: %q %q\n", text, text[1:end], msg)
	}
	// Output:
	// [-12.5e+3,true]: "-12.5e+3" ""
	// [01]: "0" ""
	// [1.]: "1." "invalid number: digit expected after '.'"
	// [-]: "-" "invalid number"
}
