package validator

import "testing"

func TestECMAToRE2(t *testing.T) {
	for _, tc := range []struct{ ecma, re2 string }{
		{`^[\u4e00-\u9fa5]+$`, `^[\x{4E00}-\x{9FA5}]+$`},
		{`^\u{1F600}$`, `^\x{1F600}$`},
		{`^\uD83D\uDE00$`, `^\x{1F600}$`},
		{`^a\\u0041$`, `^a\\u0041$`},
		{`^\d{3}-\w+$`, `^\d{3}-\w+$`},
		{`^\u12$`, `^\u12$`},
	} {
		if got := ecmaToRE2(tc.ecma); got != tc.re2 {
			t.Errorf("ecmaToRE2(%s) = %s, want %s", tc.ecma, got, tc.re2)
		}
	}
}
