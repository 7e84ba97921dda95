package mcp

import "sync"

// strayCount counts the lines or events a link could not use and keeps the first, clipped.
type strayCount struct {
	mu    sync.Mutex
	n     int
	first string
}

// add counts text and reports whether it is among the first maxStrayLogs, the ones to log.
func (c *strayCount) add(text []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if c.n == 1 {
		c.first = clip(string(text), 200)
	}
	return c.n <= maxStrayLogs
}

// get says how many were counted, and the first.
func (c *strayCount) get() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n, c.first
}
