package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Help and bad usage: --help (or -h) prints a command's synopsis and flags on stdout and exits 0,
// so that `toolproof run --help | less` shows them; an unknown flag or a refused argument prints
// the error and one line pointing at --help on stderr, and exits 2.

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "-help" }

// helpHint is the line that follows a usage error of the command name ("toolproof run").
func helpHint(name string) string { return fmt.Sprintf("run '%s --help' for the flags", name) }

// withHint is err, a usage error of the command name, followed by the line pointing at --help;
// other errors are returned as they are.
func withHint(err error, name string) error {
	var ue usageError
	if errors.As(err, &ue) {
		return usageError{ue.msg + "\n" + helpHint(name)}
	}
	return err
}

// parse parses a subcommand's flags, allowing flags after positional arguments too. It prints
// nothing itself: --help is flag.ErrHelp (printed by printHelp), a bad flag a usage error.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, withHint(usageError{err.Error()}, fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// printHelp writes the help of the command name ("toolproof run"): its synopsis from usage, then
// each flag of fs (nil: it has none) as --NAME KIND, its use and its default.
func printHelp(w io.Writer, name string, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage:\n%s\n", synopsis(strings.TrimPrefix(name, "toolproof ")))
	if fs == nil {
		fmt.Fprintf(w, "%s takes no flags.\n", name)
		return
	}
	fmt.Fprintln(w, "\nFlags (-NAME works as --NAME):")
	fs.VisitAll(func(f *flag.Flag) {
		kind, use := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if kind != "" {
			head += " " + kind
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "0s" {
			use += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintf(w, "%s\n      %s\n", head, use)
	})
}

// synopsis is the lines of usage that show the command, with their continuation lines.
func synopsis(command string) string {
	var out []string
	in := false
	for _, line := range strings.Split(usage, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "toolproof" && strings.HasPrefix(line, "  toolproof") {
			in = f[1] == command
		} else if in && !strings.HasPrefix(line, "        ") {
			in = false
		}
		if in {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		return "  toolproof " + command
	}
	return strings.Join(out, "\n")
}

// flagless runs a command that takes no flags, such as validators, answering --help for it.
func flagless(name string, cmd func(args []string, stdout, stderr io.Writer) error) func(args []string, stdout,
	stderr io.Writer) error {
	return func(args []string, stdout, stderr io.Writer) error {
		if len(args) == 1 && isHelp(args[0]) {
			printHelp(stdout, "toolproof "+name, nil)
			return flag.ErrHelp
		}
		return withHint(cmd(args, stdout, stderr), "toolproof "+name)
	}
}
