package harness

import (
	"fmt"
	"sort"
	"strings"

	"pgregory.net/rapid"

	"github.com/toolproof/toolproof/corpus"
	bits "github.com/toolproof/toolproof/internal/draw"
	"github.com/toolproof/toolproof/mutators"
)

// weighted draws classes in given proportions: Options.Weights, with each class kept at a floor
// share of the draws so that none starves.
type weighted struct {
	ms    []mutators.Mutator
	share []float64 // each class's share of the draws, summing to 1
	floor float64
}

// chanceBits is the precision of a draw: shares are read in units of 2^-20.
const chanceBits = 20

// newWeighted returns the draw of Options.Weights over ms, nil when there are no weights (every
// class once a draw). floor is the least share a class gets (0: a quarter of an even share).
func newWeighted(ms []mutators.Mutator, weights map[corpus.Class]float64, floor float64) *weighted {
	if len(weights) == 0 || len(ms) < 2 {
		return nil
	}
	if floor <= 0 {
		floor = 1 / (4 * float64(len(ms)))
	}
	floor = min(floor, 1/float64(len(ms)))
	w := &weighted{ms: ms, floor: floor, share: make([]float64, len(ms))}
	raw := make([]float64, len(ms))
	for i, m := range ms {
		raw[i] = max(weights[m.Class()], 0)
	}
	// Classes below the floor are raised to it; the others share the rest in proportion to
	// their weights. Raising one may push another below: repeat until none moves.
	atFloor := make([]bool, len(ms))
	for {
		rest, total := 1.0, 0.0
		for i := range raw {
			if atFloor[i] {
				rest -= floor
			} else {
				total += raw[i]
			}
		}
		moved := false
		for i := range raw {
			if atFloor[i] {
				w.share[i] = floor
				continue
			}
			w.share[i] = 0
			if total > 0 {
				w.share[i] = rest * raw[i] / total
			}
			if w.share[i] < floor {
				atFloor[i], moved = true, true
			}
		}
		if !moved {
			return w
		}
	}
}

// pick draws one class: each in turn is taken with its share of what the classes after it
// leave, read from rapid's bits (so a seed gives the same classes).
func (w *weighted) pick(t *rapid.T) mutators.Mutator {
	left := 1.0
	for i, s := range w.share[:len(w.share)-1] {
		if left <= 0 {
			break
		}
		m := int(s/left*(1<<chanceBits) + 0.5)
		if bits.Chance(t, min(m, 1<<chanceBits), chanceBits, "class") {
			return w.ms[i]
		}
		left -= s
	}
	return w.ms[len(w.ms)-1]
}

// draw picks the classes of one draw: as many as there are classes, each drawn by its share.
func (w *weighted) draw(t *rapid.T) []mutators.Mutator {
	out := make([]mutators.Mutator, len(w.ms))
	for i := range out {
		out[i] = w.pick(t)
	}
	return out
}

// note says how the classes were drawn, for the report.
func (w *weighted) note() string {
	type row struct {
		class string
		share float64
	}
	var rows []row
	for i, m := range w.ms {
		rows = append(rows, row{string(m.Class()), w.share[i]})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].share > rows[j].share })
	var parts []string
	for _, r := range rows {
		parts = append(parts, fmt.Sprintf("%s %.1f%%", r.class, 100*r.share))
	}
	return fmt.Sprintf("classes drawn by the given weights, each at least %.1f%% of the distortions: %s", 100*w.floor,
		strings.Join(parts, ", "))
}
