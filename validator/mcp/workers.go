package mcp

import (
	"context"
	"sync"

	"github.com/toolproof/toolproof/validator"
)

// workers are the client's goroutines that post the calls of CheckBatch over HTTP:
// Options.Window of them, started at the first batch and kept until Close, so that a batch
// starts no goroutine.
type workers struct {
	once sync.Once
	jobs chan job
	quit chan struct{}
	stop sync.Once
}

// job is one call of a batch: its verdict goes to out, then done.Done.
type job struct {
	ctx  context.Context
	g    *gate
	args []byte
	out  *validator.Verdict
	done *sync.WaitGroup
}

func newWorkers() *workers {
	return &workers{jobs: make(chan job), quit: make(chan struct{})}
}

// run hands the job to a free worker, waiting for one; after Close it runs it on the caller.
func (w *workers) run(c *Client, j job) {
	w.once.Do(func() {
		for range cap(c.sem) {
			go w.work(c)
		}
	})
	select {
	case w.jobs <- j:
	case <-w.quit:
		*j.out = c.call(j.ctx, j.g, j.args)
		j.done.Done()
	}
}

func (w *workers) work(c *Client) {
	for {
		select {
		case j := <-w.jobs:
			*j.out = c.call(j.ctx, j.g, j.args)
			j.done.Done()
		case <-w.quit:
			return
		}
	}
}

// close stops the workers once the calls they run have returned.
func (w *workers) close() { w.stop.Do(func() { close(w.quit) }) }
