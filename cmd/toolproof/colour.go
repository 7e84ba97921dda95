package main

import (
	"bytes"
	"io"
	"os"

	"github.com/toolproof/toolproof/harness/report"
)

// ANSI escapes of the text report's colours.
const (
	ansiGreen = "\x1b[32m"
	ansiRed   = "\x1b[1;31m"
	ansiReset = "\x1b[0m"
)

// useColour says whether the text report on w is coloured: never when NO_COLOR is set (not empty),
// always when FORCE_COLOR is (not empty nor "0"), else when w is a terminal (a character device).
func useColour(w io.Writer, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" {
		return false
	}
	if f := getenv("FORCE_COLOR"); f != "" && f != "0" {
		return true
	}
	return isTerminal(w)
}

// colourText colours a text report: the headline's PASS green and FAIL red, and each blocking
// finding's line (FAIL TOOL: ...) red.
func colourText(text []byte) []byte {
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(text, []byte("\n")) {
		body := bytes.TrimRight(line, "\n")
		end := line[len(body):]
		switch {
		case bytes.HasPrefix(body, []byte("PASS  ")):
			out.WriteString(ansiGreen + "PASS" + ansiReset)
			out.Write(body[len("PASS"):])
		case bytes.HasPrefix(body, []byte("FAIL  ")):
			out.WriteString(ansiRed + "FAIL" + ansiReset)
			out.Write(body[len("FAIL"):])
		case bytes.HasPrefix(body, []byte("FAIL ")):
			out.WriteString(ansiRed)
			out.Write(body)
			out.WriteString(ansiReset)
		default:
			out.Write(body)
		}
		out.Write(end)
	}
	return out.Bytes()
}

// writeStdout writes the reports to stdout in --format, the text report coloured where useColour says.
func writeStdout(stdout io.Writer, reports []*report.Report, out outputs) error {
	if out.format != "text" || !useColour(stdout, os.Getenv) {
		return write(stdout, reports, out.format, out.render)
	}
	var buf bytes.Buffer
	if err := write(&buf, reports, out.format, out.render); err != nil {
		return err
	}
	_, err := stdout.Write(colourText(buf.Bytes()))
	return err
}
