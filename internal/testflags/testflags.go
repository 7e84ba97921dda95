// Package testflags gives a test binary's flags (rapid's, say) defaults of its own, while the
// values given on the command line still win.
package testflags

import "flag"

// Default sets each flag named in defaults to its value unless the command line gave it; call it
// after flag.Parse. It panics on a flag that does not exist or a value the flag refuses.
func Default(defaults map[string]string) {
	given := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, value := range defaults {
		if !given[name] {
			if err := flag.Set(name, value); err != nil {
				panic(err)
			}
		}
	}
}
