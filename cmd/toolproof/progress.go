package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// liveProgress is the progress line a run shows on stderr when it is a terminal: cases checked,
// their rate, the time elapsed and the tools done, redrawn while a tool is under way.
type liveProgress struct {
	stderr      io.Writer
	start       time.Time
	checked     atomic.Int64
	done, total atomic.Int64
	quit        chan struct{}
	wg          sync.WaitGroup
	once        sync.Once
}

// progressEvery is how often the line is redrawn.
const progressEvery = 250 * time.Millisecond

// newLiveProgress starts the progress line on stderr when it is a terminal; nil elsewhere (nothing shown).
func newLiveProgress(stderr io.Writer) *liveProgress {
	if !isTerminal(stderr) {
		return nil
	}
	p := &liveProgress{stderr: stderr, start: time.Now(), quit: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-tick.C:
				fmt.Fprintf(p.stderr, "\r%s\033[K",
					progressLine(p.checked.Load(), time.Since(p.start), p.done.Load(), p.total.Load()))
			}
		}
	}()
	return p
}

// cases counts n cases checked (harness.Options.Cases).
func (p *liveProgress) cases(n int) { p.checked.Add(int64(n)) }

// tools records the tools done of total (harness.Options.Progress).
func (p *liveProgress) tools(done, total int) { p.done.Store(int64(done)); p.total.Store(int64(total)) }

// stop ends the line and clears it.
func (p *liveProgress) stop() {
	p.once.Do(func() {
		close(p.quit)
		p.wg.Wait()
		fmt.Fprint(p.stderr, "\r\033[K")
	})
}

// progressLine is the progress line's text: cases checked, their rate, the time elapsed and the
// tools done of total (total 0: before the first tool ends, so not said).
func progressLine(checked int64, elapsed time.Duration, done, total int64) string {
	rate := int64(0)
	if s := elapsed.Seconds(); s > 0 {
		rate = int64(float64(checked) / s)
	}
	line := fmt.Sprintf("toolproof: %s cases checked, %s/s, %s elapsed", thousands(checked), thousands(rate),
		elapsed.Truncate(time.Second))
	if total > 0 {
		line += fmt.Sprintf(", %d/%d tools", done, total)
	}
	return line
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
