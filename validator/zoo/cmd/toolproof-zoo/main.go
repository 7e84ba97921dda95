// Command toolproof-zoo runs one Go JSON Schema validator (or a plain
// encoding/json decoder) as a toolproof/1 stdio validator:
//
//	toolproof-zoo NAME   speak toolproof/1 on stdin/stdout as implementation NAME
//	toolproof-zoo list   print NAME<TAB>description, one line per implementation
package main

import (
	"fmt"
	"os"

	"github.com/toolproof/toolproof/validator/zoo/internal/impls"
	"github.com/toolproof/toolproof/validator/zoo/internal/server"
)

func main() {
	if len(os.Args) != 2 {
		usage()
		os.Exit(2)
	}
	switch arg := os.Args[1]; arg {
	case "list":
		for _, impl := range impls.All() {
			fmt.Printf("%s\t%s\n", impl.Name, impl.Description)
		}
	case "-h", "-help", "--help", "help":
		usage()
	default:
		impl, ok := impls.Lookup(arg)
		if !ok {
			fmt.Fprintf(os.Stderr, "toolproof-zoo: unknown implementation %q\n", arg)
			usage()
			os.Exit(2)
		}
		if err := server.Serve(impl, os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintf(os.Stderr, "toolproof-zoo: %v\n", err)
			os.Exit(1)
		}
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: toolproof-zoo NAME | list")
	fmt.Fprintln(os.Stderr, "implementations:")
	for _, impl := range impls.All() {
		fmt.Fprintf(os.Stderr, "  %s\t%s\n", impl.Name, impl.Description)
	}
}
