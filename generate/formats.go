package generate

import (
	"fmt"
	"strings"

	"pgregory.net/rapid"
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
	return opts[rapid.IntRange(0, len(opts)-1).Draw(t, label)]
}

func genDate(t *rapid.T) string {
	if rapid.IntRange(0, 7).Draw(t, "leapDay") == 0 {
		return pick(t, "leap", "2024-02-29", "2000-02-29", "1996-02-29")
	}
	y := rapid.IntRange(1970, 2099).Draw(t, "year")
	m := rapid.IntRange(1, 12).Draw(t, "month")
	days := []int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	d := rapid.IntRange(1, days).Draw(t, "day")
	return fmt.Sprintf("%04d-%02d-%02d", y, m, d)
}

func genTime(t *rapid.T) string {
	h := rapid.IntRange(0, 23).Draw(t, "hour")
	m := rapid.IntRange(0, 59).Draw(t, "minute")
	s := rapid.IntRange(0, 59).Draw(t, "second")
	out := fmt.Sprintf("%02d:%02d:%02d", h, m, s)
	if rapid.IntRange(0, 3).Draw(t, "frac") == 0 {
		out += "." + pick(t, "fracDigits", "5", "123", "000001")
	}
	switch rapid.IntRange(0, 3).Draw(t, "tz") {
	case 0, 1:
		out += "Z"
	case 2:
		out += fmt.Sprintf("+%02d:%02d", rapid.IntRange(0, 14).Draw(t, "offH"), pickInt(t, 0, 30, 45))
	default:
		out += fmt.Sprintf("-%02d:%02d", rapid.IntRange(0, 12).Draw(t, "offH"), pickInt(t, 0, 30))
	}
	return out
}

func pickInt(t *rapid.T, opts ...int) int {
	return opts[rapid.IntRange(0, len(opts)-1).Draw(t, "pick")]
}

func genDateTime(t *rapid.T) string { return genDate(t) + "T" + genTime(t) }

func genDuration(t *rapid.T) string {
	switch rapid.IntRange(0, 4).Draw(t, "durForm") {
	case 0:
		return fmt.Sprintf("P%dD", rapid.IntRange(0, 400).Draw(t, "d"))
	case 1:
		return fmt.Sprintf("PT%dH%dM", rapid.IntRange(0, 48).Draw(t, "h"), rapid.IntRange(0, 59).Draw(t, "m"))
	case 2:
		return fmt.Sprintf("P%dW", rapid.IntRange(1, 52).Draw(t, "w"))
	case 3:
		return fmt.Sprintf("PT%dS", rapid.IntRange(0, 3600).Draw(t, "s"))
	}
	return fmt.Sprintf("P%dY%dM%dDT%dH%dM%dS", rapid.IntRange(0, 9).Draw(t, "y"), rapid.IntRange(0, 11).Draw(t, "mo"),
		rapid.IntRange(0, 30).Draw(t, "d"), rapid.IntRange(0, 23).Draw(t, "h"), rapid.IntRange(0, 59).Draw(t, "m"),
		rapid.IntRange(0, 59).Draw(t, "s"))
}

func label(t *rapid.T, lo, hi int) string {
	n := rapid.IntRange(lo, hi).Draw(t, "labelLen")
	var b strings.Builder
	for i := 0; i < n; i++ {
		const first = "abcdefghijklmnopqrstuvwxyz"
		const rest = "abcdefghijklmnopqrstuvwxyz0123456789"
		if i == 0 || i == n-1 {
			b.WriteByte(first[rapid.IntRange(0, len(first)-1).Draw(t, "c")])
		} else if rapid.IntRange(0, 7).Draw(t, "hy") == 0 {
			b.WriteByte('-')
		} else {
			b.WriteByte(rest[rapid.IntRange(0, len(rest)-1).Draw(t, "c")])
		}
	}
	return b.String()
}

func genHostname(t *rapid.T) string {
	parts := []string{label(t, 1, 12)}
	for i := rapid.IntRange(0, 2).Draw(t, "labels"); i > 0; i-- {
		parts = append(parts, label(t, 1, 10))
	}
	parts = append(parts, pick(t, "tld", "com", "org", "io", "dev", "co", "example"))
	return strings.Join(parts, ".")
}

func genEmail(t *rapid.T) string {
	local := label(t, 1, 10)
	switch rapid.IntRange(0, 5).Draw(t, "localForm") {
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
	if rapid.IntRange(0, 5).Draw(t, "ipEdge") == 0 {
		return pick(t, "ip4", "0.0.0.0", "255.255.255.255", "127.0.0.1", "10.0.0.1")
	}
	return fmt.Sprintf("%d.%d.%d.%d", rapid.IntRange(0, 255).Draw(t, "a"), rapid.IntRange(0, 255).Draw(t, "b"),
		rapid.IntRange(0, 255).Draw(t, "c"), rapid.IntRange(0, 255).Draw(t, "d"))
}

func genIPv6(t *rapid.T) string {
	if rapid.IntRange(0, 4).Draw(t, "ip6Edge") == 0 {
		return pick(t, "ip6", "::1", "::", "fe80::1", "2001:db8::8a2e:370:7334", "::ffff:192.0.2.1")
	}
	groups := make([]string, 8)
	for i := range groups {
		groups[i] = fmt.Sprintf("%x", rapid.IntRange(0, 0xffff).Draw(t, "g"))
	}
	return strings.Join(groups, ":")
}

func genURI(t *rapid.T) string {
	scheme := pick(t, "scheme", "https", "http", "ftp")
	u := scheme + "://" + genHostname(t)
	if rapid.IntRange(0, 3).Draw(t, "port") == 0 {
		u += fmt.Sprintf(":%d", rapid.IntRange(1, 65535).Draw(t, "portN"))
	}
	for i := rapid.IntRange(0, 3).Draw(t, "segs"); i > 0; i-- {
		u += "/" + label(t, 1, 8)
	}
	if rapid.IntRange(0, 3).Draw(t, "query") == 0 {
		u += "?" + label(t, 1, 5) + "=" + label(t, 1, 5)
	}
	if rapid.IntRange(0, 5).Draw(t, "frag") == 0 {
		u += "#" + label(t, 1, 6)
	}
	if rapid.IntRange(0, 9).Draw(t, "urn") == 0 {
		return "urn:isbn:0451450523"
	}
	return u
}

func genURIRef(t *rapid.T) string {
	switch rapid.IntRange(0, 3).Draw(t, "refForm") {
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
			b.WriteByte(hex[rapid.IntRange(0, 15).Draw(t, "hex")])
		}
	}
	return b.String()
}

func genJSONPointer(t *rapid.T) string {
	var b strings.Builder
	for i := rapid.IntRange(0, 3).Draw(t, "tokens"); i > 0; i-- {
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
	v := fmt.Sprintf("%d.%d.%d", rapid.IntRange(0, 20).Draw(t, "maj"), rapid.IntRange(0, 40).Draw(t, "min"),
		rapid.IntRange(0, 99).Draw(t, "pat"))
	if rapid.IntRange(0, 4).Draw(t, "pre") == 0 {
		v += "-" + pick(t, "preTag", "alpha.1", "rc.2", "beta")
	}
	return v
}
