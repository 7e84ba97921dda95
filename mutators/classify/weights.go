package classify

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/toolproof/toolproof/corpus"
	"github.com/toolproof/toolproof/mutators"
)

// Weights are the class (and variant) frequencies observed in a log: how often each class of
// distortion was found. harness.Options.Weights draws classes in these proportions.
type Weights struct {
	Source   string               `json:"source,omitempty"` // the log they were counted in
	Calls    int                  `json:"calls"`            // the calls classified
	Classes  map[corpus.Class]int `json:"classes"`          // distortions found, by class
	Variants map[string]int       `json:"variants,omitempty"`
}

// WeightsOf counts the classes and variants ("class/variant") of a summary.
func WeightsOf(s Summary, source string) Weights {
	w := Weights{Source: source, Calls: s.Calls, Classes: map[corpus.Class]int{}, Variants: map[string]int{}}
	for _, cc := range s.Classes {
		w.Classes[cc.Class] = cc.Distortions
		for _, v := range cc.Variants {
			w.Variants[string(cc.Class)+"/"+v.Variant] = v.Count
		}
	}
	return w
}

// ReadWeights reads a weights file (what classify --weights writes). Every class must be one of
// the mutators' and no count negative; an error names the file and the class.
func ReadWeights(path string) (Weights, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Weights{}, err
	}
	var w Weights
	if err := json.Unmarshal(data, &w); err != nil {
		return Weights{}, fmt.Errorf("%s: not a weights file: %v", path, err)
	}
	known := map[corpus.Class]bool{}
	for _, c := range mutators.Classes() {
		known[c] = true
	}
	var names []string
	for c := range w.Classes {
		names = append(names, string(c))
	}
	sort.Strings(names)
	total := 0
	for _, n := range names {
		c := corpus.Class(n)
		if !known[c] {
			return Weights{}, fmt.Errorf("%s: class %q is not one of toolproof's (see toolproof gen --mutated)",
				path, c)
		}
		if w.Classes[c] < 0 {
			return Weights{}, fmt.Errorf("%s: class %q has a negative count %d", path, c, w.Classes[c])
		}
		total += w.Classes[c]
	}
	if total == 0 {
		return Weights{}, fmt.Errorf("%s: no class has a count above zero: nothing to weight the draws by", path)
	}
	return w, nil
}

// Proportions are the class counts as the harness takes them.
func (w Weights) Proportions() map[corpus.Class]float64 {
	out := map[corpus.Class]float64{}
	for c, n := range w.Classes {
		out[c] = float64(n)
	}
	return out
}
