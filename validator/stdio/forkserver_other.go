//go:build !linux

package stdio

import (
	"errors"
	"io"
	"time"
)

// forkServer is not used here: its socket carries descriptors on Linux only.
type forkServer struct{}

func startForkServer(Options, io.Writer, time.Duration) (*forkServer, error) {
	return nil, errors.New("fork servers are used on Linux only")
}

func (*forkServer) fork(<-chan struct{}) (process, pipes, error) {
	return nil, pipes{}, errors.New("fork servers are used on Linux only")
}

func (*forkServer) close() {}
