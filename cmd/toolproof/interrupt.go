package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/toolproof/toolproof/harness/report"
)

// exitInterrupted is the exit status of a run stopped by a signal or --max-time, after the
// report of what was checked.
const exitInterrupted = 3

// errInterrupted makes the exit status exitInterrupted after the report is written.
var errInterrupted = errors.New("interrupted")

// stopOn returns the context that stops a run: done at the first SIGINT or SIGTERM, or after
// maxTime (0: never), with the cause the report gives. A second signal does not wait for the
// report: it kills the validators (closeAll) and exits at once. release stops listening.
func stopOn(maxTime time.Duration, closeAll func(), stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	var stopTimer func() bool
	if maxTime > 0 {
		stopTimer = time.AfterFunc(maxTime, func() {
			cancel(fmt.Errorf("stopped after --max-time %v", maxTime))
		}).Stop
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	quit := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			cancel(fmt.Errorf("interrupted by %s", signalName(sig)))
			fmt.Fprintf(stderr, "toolproof: %s: stopping after the calls in flight, then writing the report (again "+
				"to stop at once)\n", signalName(sig))
		case <-quit:
			return
		}
		select {
		case sig := <-sigs:
			fmt.Fprintf(stderr, "toolproof: %s again: the validators are killed, no report\n", signalName(sig))
			closeAll()
			os.Exit(exitInterrupted)
		case <-quit:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(quit)
		if stopTimer != nil {
			stopTimer()
		}
		cancel(nil)
	}
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// interrupted says why the runs of reports stopped early ("" when none did).
func interrupted(reports []*report.Report) string {
	var whys []string
	for _, r := range reports {
		if r.Interrupted != "" {
			whys = append(whys, r.Validator+": "+r.Interrupted)
		}
	}
	return strings.Join(whys, "; ")
}
