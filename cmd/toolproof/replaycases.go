package main

import (
	"os"
	"strings"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/harness/baseline"
)

// casesToReplay reads the cases replay runs: the saved cases of a directory (--save DIR), or the
// findings of a JSON report (and of its baseline), one case each; with ids, only those.
func casesToReplay(path string, ids []string) ([]corpus.Case, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, usagef("replay %s: not a directory of saved cases nor a JSON report: %v", path, err)
	}
	var cs []corpus.Case
	if info.IsDir() {
		if cs, err = corpus.Load(path); err != nil {
			return nil, usageError{err.Error()}
		}
	} else {
		b, err := baseline.Load(path)
		if err != nil {
			return nil, usagef("replay %s: not a directory of saved cases, and %v", path, err)
		}
		cs = b.Cases()
	}
	if len(ids) > 0 {
		want := map[string]bool{}
		for _, id := range ids {
			want[id] = true
		}
		var keep []corpus.Case
		for _, c := range cs {
			if want[c.ID] {
				keep = append(keep, c)
				delete(want, c.ID)
			}
		}
		if len(want) > 0 {
			var missing []string
			for _, id := range ids {
				if want[id] {
					missing = append(missing, id)
				}
			}
			return nil, usagef("replay %s: no case with id %s", path, strings.Join(missing, ", "))
		}
		cs = keep
	}
	if len(cs) == 0 {
		return nil, usagef("replay %s: no saved cases", path)
	}
	return cs, nil
}
