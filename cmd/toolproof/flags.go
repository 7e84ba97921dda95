package main

import (
	"flag"
	"strings"

	"github.com/toolproof/toolproof/harness/report"
)

// The flags more than one subcommand takes, declared here once; each subcommand's struct holds
// its values.

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// toolsFlag declares --tools, a tool file or directory, repeatable.
func toolsFlag(fs *flag.FlagSet, v *multiFlag, usage string) { fs.Var(v, "tools", usage) }

// closeFlag declares --close: objects that do not say otherwise are closed.
func closeFlag(fs *flag.FlagSet, v *bool, usage string) { fs.BoolVar(v, "close", false, usage) }

// mutatorsFlag declares --mutators, the distortion classes to use.
func mutatorsFlag(fs *flag.FlagSet, v *string, usage string) {
	fs.StringVar(v, "mutators", "all", usage)
}

// reportFormatFlag declares --format for the commands that write a report (report.Formats).
func reportFormatFlag(fs *flag.FlagSet, v *string) {
	fs.StringVar(v, "format", "text", "`FORMAT` of the report: "+report.FormatList())
}

// maxSkippedFlag declares --max-skipped.
func maxSkippedFlag(fs *flag.FlagSet, v *int) {
	fs.IntVar(v, "max-skipped", -1,
		"exit with status 2 after the report when more than `N` tools are skipped (0: any skipped tool; -1: no limit)")
}

// sarifFileFlag declares --sarif-file, where SARIF locates findings whose tool has no tool file.
func sarifFileFlag(fs *flag.FlagSet, v *string) {
	fs.StringVar(v, "sarif-file", "",
		"SARIF: the `FILE` (relative to the repository) that locates findings whose tool comes from no tool file, "+
			"such as an MCP server's source; code scanning refuses results without a file")
}
