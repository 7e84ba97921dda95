package generate

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/internal/draw"
)

// formatGens draw strings in the common formats. They stay inside what strict implementations
// (santhosh, ajv-formats "full", python jsonschema) all accept, with edges that are still valid:
// leap days, fractional seconds, offsets, compressed IPv6, plus signs in e-mail local parts.
var formatGens = map[string]func(t *rapid.T) string{
	"date-time":     genDateTime,
	"date":          genDate,
	"time":          genTime,
	"duration":      genDuration,
	"email":         genEmail,
	"idn-email":     genEmail,
	"hostname":      genHostname,
	"idn-hostname":  genHostname,
	"ipv4":          genIPv4,
	"ipv6":          genIPv6,
	"uri":           genURI,
	"iri":           genURI,
	"uri-reference": genURIRef,
	"iri-reference": genURIRef,
	"uuid":          genUUID,
	"json-pointer":  genJSONPointer,
	"regex":         genRegex,
	"uri-template":  genURITemplate,
	"semver":        genSemver,
}

func pick(t *rapid.T, label string, opts ...string) string {
	return opts[draw.Int(t, 0, len(opts)-1, label)]
}

func genDate(t *rapid.T) string {
	if draw.Int(t, 0, 7, "leapDay") == 0 {
		return pick(t, "leap", "2024-02-29", "2000-02-29", "1996-02-29")
	}
	y := draw.Int(t, 1970, 2099, "year")
	m := draw.Int(t, 1, 12, "month")
	days := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	d := draw.Int(t, 1, days, "day")
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

func genTime(t *rapid.T) string {
	h := draw.Int(t, 0, 23, "hour")
	m := draw.Int(t, 0, 59, "minute")
	s := draw.Int(t, 0, 59, "second")
	out := fmt.Sprintf("%02d:%02d:%02d", h, m, s)
	if draw.Int(t, 0, 3, "frac") == 0 {
		out += "." + pick(t, "fracDigits", "5", "123", "000001")
	}
	switch draw.Int(t, 0, 3, "tz") {
	case 0, 1:
		out += "Z"
	case 2:
		out += fmt.Sprintf("+%02d:%02d", draw.Int(t, 0, 14, "offH"), pickInt(t, 0, 30, 45))
	default:
		out += fmt.Sprintf("-%02d:%02d", draw.Int(t, 0, 12, "offH"), pickInt(t, 0, 30))
	}
	return out
}

func pickInt(t *rapid.T, opts ...int) int {
	return opts[draw.Int(t, 0, len(opts)-1, "pick")]
}

func genDateTime(t *rapid.T) string { return genDate(t) + "T" + genTime(t) }

func genDuration(t *rapid.T) string {
	switch draw.Int(t, 0, 4, "durForm") {
	case 0:
		return fmt.Sprintf("P%dD", draw.Int(t, 0, 400, "d"))
	case 1:
		return fmt.Sprintf("PT%dH%dM", draw.Int(t, 0, 48, "h"), draw.Int(t, 0, 59, "m"))
	case 2:
		return fmt.Sprintf("P%dW", draw.Int(t, 1, 52, "w"))
	case 3:
		return fmt.Sprintf("PT%dS", draw.Int(t, 0, 3600, "s"))
	}
	return fmt.Sprintf("P%dY%dM%dDT%dH%dM%dS", draw.Int(t, 0, 9, "y"), draw.Int(t, 0, 11, "mo"),
		draw.Int(t, 0, 30, "d"), draw.Int(t, 0, 23, "h"), draw.Int(t, 0, 59, "m"),
		draw.Int(t, 0, 59, "s"))
}

func label(t *rapid.T, lo, hi int) string {
	n := draw.Int(t, lo, hi, "labelLen")
	var b strings.Builder
	for i := 0; i < n; i++ {
		const first = "abcdefghijklmnopqrstuvwxyz"
		const rest = "abcdefghijklmnopqrstuvwxyz0123456789"
		// Hyphens inside only, never two in a row: "--" in the third and fourth places is
		// reserved for IDNA labels (xn--), and the test suite counts it invalid.
		if i == 0 || i == n-1 {
			b.WriteByte(first[draw.Int(t, 0, len(first)-1, "c")])
		} else if b.String()[i-1] != '-' && draw.Chance(t, 11, 6, "hy") { // 11 in 64
			b.WriteByte('-')
		} else {
			b.WriteByte(rest[draw.Int(t, 0, len(rest)-1, "c")])
		}
	}
	return b.String()
}

func genHostname(t *rapid.T) string {
	parts := []string{label(t, 1, 12)}
	for i := draw.Int(t, 0, 2, "labels"); i > 0; i-- {
		parts = append(parts, label(t, 1, 10))
	}
	parts = append(parts, pick(t, "tld", "com", "org", "io", "dev", "co", "example"))
	return strings.Join(parts, ".")
}

func genEmail(t *rapid.T) string {
	local := label(t, 1, 10)
	switch draw.Int(t, 0, 5, "localForm") {
	case 0:
		local += "." + label(t, 1, 6)
	case 1:
		local += "+" + label(t, 1, 6)
	case 2:
		local += "_" + label(t, 1, 4)
	}
	return local + "@" + genHostname(t)
}

func genIPv4(t *rapid.T) string {
	if draw.Int(t, 0, 5, "ipEdge") == 0 {
		return pick(t, "ip4", "0.0.0.0", "255.255.255.255", "127.0.0.1", "10.0.0.1")
	}
	return fmt.Sprintf("%d.%d.%d.%d", draw.Int(t, 0, 255, "a"), draw.Int(t, 0, 255, "b"),
		draw.Int(t, 0, 255, "c"), draw.Int(t, 0, 255, "d"))
}

func genIPv6(t *rapid.T) string {
	if draw.Int(t, 0, 4, "ip6Edge") == 0 {
		return pick(t, "ip6", "::1", "::", "fe80::1", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1")
	}
	groups := make([]string, 8)
	for i := range groups {
		groups[i] = fmt.Sprintf("%x", draw.Int(t, 0, 0xffff, "g"))
	}
	return strings.Join(groups, ":")
}

func genURI(t *rapid.T) string {
	scheme := pick(t, "scheme", "https", "http", "ftp")
	u := scheme + "://" + genHostname(t)
	if draw.Int(t, 0, 3, "port") == 0 {
		u += fmt.Sprintf(":%d", draw.Int(t, 1, 65535, "portN"))
	}
	for i := draw.Int(t, 0, 3, "segs"); i > 0; i-- {
		u += "/" + label(t, 1, 8)
	}
	if draw.Int(t, 0, 3, "query") == 0 {
		u += "?" + label(t, 1, 5) + "=" + label(t, 1, 5)
	}
	if draw.Int(t, 0, 5, "frag") == 0 {
		u += "#" + label(t, 1, 6)
	}
	if draw.Int(t, 0, 9, "urn") == 0 {
		return "urn:isbn:0451450523"
	}
	return u
}

func genURIRef(t *rapid.T) string {
	switch draw.Int(t, 0, 3, "refForm") {
	case 0:
		return "../" + label(t, 1, 6) + "/" + label(t, 1, 6)
	case 1:
		return "#" + label(t, 1, 6)
	case 2:
		return "/" + label(t, 1, 6) + "?q=" + label(t, 1, 4)
	}
	return genURI(t)
}

func genUUID(t *rapid.T) string {
	const hex = "0123456789abcdef"
	var b strings.Builder
	for i, n := range []int{8, 4, 4, 4, 12} {
		if i > 0 {
			b.WriteByte('-')
		}
		for j := 0; j < n; j++ {
			b.WriteByte(hex[draw.Int(t, 0, 15, "hex")])
		}
	}
	return b.String()
}

func genJSONPointer(t *rapid.T) string {
	var b strings.Builder
	for i := draw.Int(t, 0, 3, "tokens"); i > 0; i-- {
		b.WriteString("/" + pick(t, "tok", "a", "b~0c", "d~1e", "0", "items", ""))
	}
	return b.String()
}

func genRegex(t *rapid.T) string {
	return pick(t, "regex", "^[a-z]+$", "\\d{3}-\\d{4}", "(foo|bar)baz", ".*", "^$", "[A-Z][a-z]*")
}

func genURITemplate(t *rapid.T) string {
	return pick(t, "tmpl", "/users/{id}", "https://example.com/{path}{?q,page}", "/static")
}

func genSemver(t *rapid.T) string {
	v := fmt.Sprintf("%d.%d.%d", draw.Int(t, 0, 20, "maj"), draw.Int(t, 0, 40, "min"),
		draw.Int(t, 0, 99, "pat"))
	if draw.Int(t, 0, 4, "pre") == 0 {
		v += "-" + pick(t, "preTag", "alpha.1", "rc.2", "beta")
	}
	return v
}
