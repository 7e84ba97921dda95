// Command toolproof proves that a validator of LLM tool-call arguments holds: it generates valid
// arguments from each tool's JSON Schema, distorts them the way language models do, and reports
// every wrong verdict.
//
//	toolproof run        [--tools PATH]... [--validator SPEC]... [--checks N] [--seed S] ...
//	toolproof replay DIR|REPORT.json [--id ID]... [--validator SPEC] [--format ...]
//	toolproof merge      REPORT.json... [--format FORMAT] [--report FORMAT=FILE]...
//	toolproof baseline   REPORT.json
//	toolproof gen        (--tools PATH | --schema FILE) [--valid] [--mutated] [--n N] [--seed S]
//	                     [--format jsonl|test-suite]
//	toolproof audit      --tools PATH [--format text|json]
//	toolproof classify   --calls LOG [--tools PATH]... [--format text|json|jsonl] [--save DIR] [--weights OUT]
//	toolproof validators
//	toolproof version    (or --version, -v)
//
// Exit status: 0 no finding, 1 findings, 2 bad usage or input (or more skipped tools than
// --max-skipped allows), 3 the run was stopped (SIGINT, SIGTERM or --max-time) and its report
// covers what was checked.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/toolproof/toolproof/harness/report"
	"github.com/toolproof/toolproof/internal/procgroup"
)

// usageError is bad usage or input: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// errFindings makes the exit status 1 after the report is written.
var errFindings = errors.New("findings")

const usage = `toolproof proves that a validator of LLM tool-call arguments holds.

Usage:
  toolproof run        [--tools PATH]... [--validator SPEC]... [--checks N] [--seed S]
                       [--mutators LIST] [--profile strict|repair] [--close] [--jobs N]
                       [--shard i/n | --shards N] [--format FORMAT] [--report FORMAT=FILE]...
                       [--baseline REPORT.json] [--save DIR] [--require-location] [--timeout D] [--window N]
                       [--processes N] [--max-skipped N] [--only-reject] [--block-declared-defaults]
                       [--tool NAME]... [--skip-tool NAME]... [--reject-pattern RE] [--ran-pattern RE]
                       [--weights FILE]
  toolproof merge      REPORT.json... [--format FORMAT] [--report FORMAT=FILE]... [--max-skipped N]
  toolproof replay     DIR|REPORT.json [--id ID]... [--validator SPEC]... [--tools PATH]... [--format FORMAT]
                       [--report FORMAT=FILE]... [--close] [--max-skipped N]
  toolproof baseline   REPORT.json     (the known findings of a run, for run --baseline)
  toolproof gen        (--tools PATH | --schema FILE) [--valid] [--mutated] [--n N] [--seed S]
                       [--mutators LIST] [--close] [--format jsonl|test-suite|go-fuzz]
  toolproof audit      [--tools PATH]... [--close] [--format text|json] [--all]
  toolproof classify   --calls LOG [--tools PATH]... [--format text|json|jsonl] [--save DIR]
                       [--save-valid] [--weights OUT] [--close]
  toolproof validators
  toolproof version    (or --version, -v: the version and the commit it was built from)

With no --tools, run, replay and audit use the embedded tool corpus; with no --validator, the
built-in reference validator (toolproof's oracle, so run then also shows what a coercing gate
gets, as a demonstration). SPEC: a name from 'toolproof validators', builtin:NAME,
exec:COMMAND (toolproof/1), node:PATH (a module of native tools: zod, TypeBox, AI SDK, OpenAI
Agents SDK, LangChain, Mastra or an MCP SDK McpServer, each through its own path; TOOLPROOF_NODE
names the node binary, e.g. Node.js 22 for ai@7 and Mastra), mcp:COMMAND or mcp:http(s)://URL
(an MCP server over stdio or Streamable HTTP, --header 'NAME: VALUE' for auth:
its tools run, so sandbox it; --only-reject sends only must-reject calls). Exit status: 0 no finding, 1 findings, 2 bad usage or input (and more
skipped tools than --max-skipped allows), 3 the run was stopped by SIGINT, SIGTERM or --max-time
(the report covers what was checked; a second signal ends it at once). merge puts the JSON reports of the shards of a run
(--shard i/n, or the index from TOOLPROOF_SHARD, JOB_COMPLETION_INDEX with --shards N,
CIRCLE_NODE_INDEX, BUILDKITE_PARALLEL_JOB or CI_NODE_INDEX) together into the report of the
whole run.
FORMAT: text, json, junit, markdown, html, sarif or badge. --baseline replays the known
findings of an earlier run first: those that still reproduce do not fail the run, those that no
longer do (fixed) fail it, and any other finding fails as usual.
Run 'toolproof COMMAND --help' (or 'toolproof help COMMAND') for the flags of a command.
`

func main() {
	// A run allocates many short-lived values; collecting less often trades memory for a third
	// less CPU, and a soft limit keeps the heap under 384 MiB. GOGC and GOMEMLIMIT still win.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(384 << 20) // collect harder as the heap nears it
	}
	// What a validator starts in a session of its own is reparented here when its parent dies,
	// so that closing the validator reaps it (procgroup.Tag.End); a failure leaves it to init.
	_ = procgroup.BecomeSubreaper()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// command is a subcommand: its flags, the check of what it was given, and its run.
type command interface {
	// flags declares the subcommand's flags.
	flags(fs *flag.FlagSet)
	// check refuses positional arguments or flag values the subcommand cannot use.
	check(pos []string) error
	// run runs it; args are its arguments as given (reports repeat the command line).
	run(args []string, stdout, stderr io.Writer) error
}

// flagged maps the name of each subcommand that takes flags to a fresh one.
func flagged() map[string]command {
	return map[string]command{"run": &runCmd{}, "replay": &replayCmd{}, "merge": &mergeCmd{},
		"baseline": &baselineCmd{},
		"gen":      &genCmd{}, "audit": &auditCmd{}, "classify": &classifyCmd{}}
}

// commands maps each subcommand's name to what runs it.
func commands() map[string]func(args []string, stdout, stderr io.Writer) error {
	cmds := map[string]func(args []string, stdout, stderr io.Writer) error{
		"validators": flagless("validators", cmdValidators), "version": flagless("version", cmdVersion),
	}
	for name, c := range flagged() {
		cmds[name] = runs(name, c)
	}
	return cmds
}

// runs parses c's flags from args, checks them and runs c.
func runs(name string, c command) func(args []string, stdout, stderr io.Writer) error {
	return func(args []string, stdout, stderr io.Writer) error {
		fs := flag.NewFlagSet("toolproof "+name, flag.ContinueOnError)
		c.flags(fs)
		pos, err := parse(fs, args)
		if errors.Is(err, flag.ErrHelp) {
			printHelp(stdout, fs.Name(), fs)
		}
		if err != nil {
			return err
		}
		if err := c.check(pos); err != nil {
			return withHint(err, fs.Name())
		}
		return c.run(args, stdout, stderr)
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch {
	case args[0] == "help" && len(args) == 2: // help COMMAND: the command's --help
		args = []string{args[1], "--help"}
	case isHelp(args[0]) || args[0] == "help":
		fmt.Fprint(stdout, usage)
		return 0
	case args[0] == "-v" || args[0] == "--version" || args[0] == "-version":
		args = append([]string{"version"}, args[1:]...)
	}
	var err error
	if cmd, ok := commands()[args[0]]; ok {
		err = cmd(args[1:], stdout, stderr)
	} else {
		err = usagef("unknown command %q\nrun 'toolproof --help' for the commands", args[0])
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errFindings):
		return 1
	case errors.Is(err, errInterrupted):
		return exitInterrupted
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "toolproof:", report.EscapeText(ue.msg))
		return 2
	case errors.Is(err, flag.ErrHelp):
		return 0
	default:
		fmt.Fprintln(stderr, "toolproof:", report.EscapeText(err.Error()))
		return 2
	}
}
