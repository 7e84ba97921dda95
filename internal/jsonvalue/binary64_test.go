package jsonvalue

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// readsBack reports whether the shortest decimal of s's nearest double has the value of s.
func readsBack(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	a, okA := new(big.Rat).SetString(s)
	b, okB := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return okA && okB && a.Cmp(b) == 0
}

// TestFewDigitsReadBack: every number the fast path of Shortest64 keeps as written reads back
// from its double; numbers of 16 and 17 digits that do not are not kept.
func TestFewDigitsReadBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Up to 18 significant digits, the point anywhere among them.
		n := rapid.IntRange(1, 18).Draw(t, "digits")
		digits := []byte(rapid.StringMatching(`[1-9]`).Draw(t, "first") +
			rapid.StringMatching(fmt.Sprintf(`[0-9]{%d}`, n-1)).Draw(t, "rest"))
		point := rapid.IntRange(0, n).Draw(t, "point")
		text := string(digits)
		switch {
		case point == 0:
			text = "0." + text
		case point < n:
			text = text[:point] + "." + text[point:]
		}
		if rapid.Bool().Draw(t, "neg") {
			text = "-" + text
		}
		if rapid.Bool().Draw(t, "exp") {
			text += "e" + strconv.Itoa(rapid.IntRange(-320, 320).Draw(t, "e"))
		}
		if _, err := Parse([]byte(text)); err != nil {
			t.Skip("not a JSON number")
		}
		if fewDigits(text) && !readsBack(text) {
			t.Fatalf("%s: kept as written, but its double reads back as %s", text, shortestOf(text))
		}
	})
	for _, s := range []string{"9007199254740993", "0.10000000000000001", "1.0000000000000001", "1e-320",
		"1.7976931348623159e308"} {
		if fewDigits(s) {
			t.Errorf("%s: kept as written, though it has more than 15 digits or is out of range", s)
		}
	}
	for _, s := range []string{"0.1", "-0.07", "123456789012345", "1.5e-7",
		"0.000000000000000000001", "0", "-0.0", "1E5"} {
		if !fewDigits(s) {
			t.Errorf("%s: not kept as written, though it has at most 15 digits", s)
		}
		if got, _ := Shortest64(json.Number(s)); string(got) != s {
			t.Errorf("Shortest64(%s) = %s", s, got)
		}
	}
}

// TestKeepsMeansKept: a number the fast checks say is kept as written is kept by the full
// rounding (so differ may skip the walk on their word).
func TestKeepsMeansKept(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.StringMatching(`-?(0|[1-9][0-9]{0,18})(\.[0-9]{1,18})?([eE][+-]?[0-9]{1,3})?`).Draw(t, "n")
		n := json.Number(text)
		if Shortest64Keeps([]byte(text)) {
			if got, ok := Shortest64(n); !ok || got != n {
				t.Fatalf("Shortest64Keeps(%s), but Shortest64 gives %s, %v", text, got, ok)
			}
		}
		if Binary64Keeps([]byte(text)) {
			if got, ok := Binary64(n); !ok || got != n {
				t.Fatalf("Binary64Keeps(%s), but Binary64 gives %s, %v", text, got, ok)
			}
		}
	})
}

// TestNumberTokens: the numbers NumberTokens finds in a JSON text are those of its value,
// whatever the strings around them hold.
func TestNumberTokens(t *testing.T) {
	pieces := []string{`1`, `-0.5`, `1e+300`, `"2"`, `"a\"3"`, `"\\"`, `"\\\""`, `"-4"`, `true`, `null`, `[]`, `{}`,
		`"x\u0035"`, `12345678901234567890`}
	rapid.Check(t, func(t *rapid.T) {
		var parts []string
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 8).Draw(t, "pieces") {
			parts = append(parts, pieces[i])
		}
		// An array of all, and an object whose keys are the pieces that are strings (each once).
		text := "[" + strings.Join(parts, ",") + "]"
		var obj []string
		seen := map[string]bool{}
		for i, p := range parts {
			if strings.HasPrefix(p, `"`) && !seen[p] {
				seen[p] = true
				obj = append(obj, p+":"+parts[(i+1)%len(parts)])
			}
		}
		text = `{"a":` + text + `,"b":{` + strings.Join(obj, ",") + `}}`
		v, err := Parse([]byte(text))
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		var want, got []string
		Numbers(v, func(n json.Number) { want = append(want, string(n)) })
		NumberTokens([]byte(text), func(start, end int) bool { got = append(got, text[start:end]); return true })
		sort.Strings(want)
		sort.Strings(got)
		if !slices.Equal(want, got) {
			t.Fatalf("%s: NumberTokens found %q, the value holds %q", text, got, want)
		}
	})
}

func shortestOf(s string) string {
	f, _ := strconv.ParseFloat(s, 64)
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// TestStdlibScannerIsNoStricter: whatever encoding/json's Valid rejects, Parse rejects too (on
// texts as shallow as arguments are), so a cheap json.Valid may screen out texts before the
// strict parser decides (the malformed_json mutator does).
func TestStdlibScannerIsNoStricter(t *testing.T) {
	pieces := []string{`{`, `}`, `[`, `]`, `"`, `,`, `:`, `\`, `"a"`, `1`, `-0`, `01`, `1.`, `.5`, `1e`, `1e+2`,
		`true`, `True`, `null`, `nul`, ` `, "\t", "\n", "\xff", "\u2028", `\u12`, `\ud800`, `/*`,
		`'`, `NaN`, "\x00", "é"}
	rapid.Check(t, func(t *rapid.T) {
		var b []byte
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 12).Draw(t, "pieces") {
			b = append(b, pieces[i]...)
		}
		if !json.Valid(b) && Valid(b) {
			t.Fatalf("%q: encoding/json rejects it, the strict parser accepts it", b)
		}
	})
	for _, s := range []string{`{"a":1,}`, `{'a':1}`, `{"a":NaN}`, `{"a":1} // x`, "{\"a\":\"\xff\"}"} {
		if Valid([]byte(s)) {
			t.Errorf("%q: the strict parser accepts it", s)
		}
	}
}
