// Package rapidseam is the one seam between toolproof and rapid: the settings a run gives rapid,
// a property run outside go test, and a property that ends its own check. It is apart from the
// harness because rapid was made for go test, and each of the three bends it:
//
//   - rapid reads its settings (checks, seed, fail files, shrink time) from process-wide flags,
//     and asks testing.Short, which panics unless the testing flags are registered and parsed.
//     So outside go test the testing flags are registered (testing.Init) and the command line
//     is marked parsed, once, with no arguments; and a run sets rapid's flags to its settings
//     for as long as it runs (Acquire). Runs with the same settings go on side by side; a run
//     with other settings waits until they end. A run started inside a gate of another run
//     waits too: the outer run gives up on that call after its timeout, as on any hung gate,
//     ends, and lets it go on. A Bounded gate must not start runs.
//   - rapid.Check wants a testing.TB; outside go test it gets one that records failures
//     instead of ending a test (Check).
//   - rapid cannot be stopped from a property: it recovers panics as failures, and after the
//     last useful try it would still walk every recorded bit, a minute and more on a big
//     value. So a property that must end the check (a shrink whose steps are spent, a run that
//     was stopped) runs in a goroutine of its own and ends it with runtime.Goexit (Halt.End,
//     CheckHaltable).
//
// Nothing else in toolproof reads or writes process flags or ends a goroutine rapid runs in.
package rapidseam

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Config is what a run asks of rapid.
type Config struct {
	Checks     int    // draws per property
	Seed       uint64 // rapid's seed
	NoFailFile bool   // write no fail file
}

// ShrinkTime is what rapid is told it may spend minimising: all the time there is (rapid caps it
// at a day less a step). How small a case gets must not depend on how busy the machine is, so
// the harness bounds shrinking by draws instead, and ends the check itself (Halt).
const ShrinkTime = 24 * time.Hour

type seam struct {
	mu         sync.Mutex
	cond       *sync.Cond
	active     int
	current    Config
	original   map[string]string
	randomSeed uint64 // the seed of runs that give none, drawn once
}

var the = func() *seam { s := &seam{}; s.cond = sync.NewCond(&s.mu); return s }()

var initTesting = sync.OnceFunc(func() {
	if flag.Lookup("test.short") == nil {
		testing.Init()
	}
	if !flag.Parsed() {
		_ = flag.CommandLine.Parse(nil)
	}
})

// rapidFlag reads the value of one of rapid's flags as the process has it.
func rapidFlag(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// Resolve fills in what a run leaves open (0): checks from rapid's -rapid.checks (100 by
// default), the seed from -rapid.seed, else one random seed for the whole process (the report
// says which). noFailFile is kept, or set by -rapid.nofailfile.
func Resolve(checks int, seed uint64, noFailFile bool) Config {
	s := the
	initTesting()
	s.mu.Lock()
	if s.original == nil {
		s.original = map[string]string{}
		for _, n := range []string{"rapid.checks", "rapid.seed", "rapid.nofailfile", "rapid.shrinktime"} {
			s.original[n] = rapidFlag(n)
		}
	}
	orig := s.original
	s.mu.Unlock()
	c := Config{Checks: checks, Seed: seed, NoFailFile: noFailFile || orig["rapid.nofailfile"] == "true"}
	if c.Checks <= 0 {
		c.Checks, _ = strconv.Atoi(orig["rapid.checks"])
		if c.Checks <= 0 {
			c.Checks = 100
		}
	}
	if c.Seed == 0 {
		c.Seed, _ = strconv.ParseUint(orig["rapid.seed"], 10, 64)
	}
	if c.Seed == 0 {
		// One random seed for the process, so that runs that leave the seed open share rapid's
		// flags and go on side by side.
		s.mu.Lock()
		for s.randomSeed == 0 {
			var b [8]byte
			_, _ = rand.Read(b[:])
			s.randomSeed = binary.LittleEndian.Uint64(b[:]) >> 1
		}
		c.Seed = s.randomSeed
		s.mu.Unlock()
	}
	return c
}

// Acquire sets rapid's flags to c (and its shrink time to ShrinkTime) and holds them until
// release is called; it waits while runs with other settings hold them.
func Acquire(c Config) (release func()) {
	s := the
	s.mu.Lock()
	for s.active > 0 && s.current != c {
		s.cond.Wait()
	}
	if s.active == 0 {
		s.current = c
		_ = flag.Set("rapid.checks", strconv.Itoa(c.Checks))
		_ = flag.Set("rapid.seed", strconv.FormatUint(c.Seed, 10))
		_ = flag.Set("rapid.nofailfile", strconv.FormatBool(c.NoFailFile))
		_ = flag.Set("rapid.shrinktime", ShrinkTime.String())
	}
	s.active++
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.active--
		if s.active == 0 {
			s.cond.Broadcast()
		}
		s.mu.Unlock()
	}
}

// errFailNow stops rapid.Check when the property failed; Check recovers it.
var errFailNow = errors.New("toolproof: check failed")

// checkTB is the rapid.TB that runs a property outside go test: it records failures instead
// of ending a test.
type checkTB struct {
	name   string
	mu     sync.Mutex
	failed bool
	msgs   []string
}

func (c *checkTB) Helper() {}

func (c *checkTB) Name() string { return "toolproof/" + c.name }

func (c *checkTB) Logf(string, ...any) {}

func (c *checkTB) Log(...any) {}

func (c *checkTB) Skipf(f string, a ...any) { panic(errFailNow) }

func (c *checkTB) Skip(...any) { panic(errFailNow) }

func (c *checkTB) SkipNow() { panic(errFailNow) }

func (c *checkTB) Errorf(f string, a ...any) { c.fail(fmt.Sprintf(f, a...)) }

func (c *checkTB) Error(a ...any) { c.fail(fmt.Sprint(a...)) }

func (c *checkTB) Fatalf(f string, a ...any) { c.fail(fmt.Sprintf(f, a...)); panic(errFailNow) }

func (c *checkTB) Fatal(a ...any) { c.fail(fmt.Sprint(a...)); panic(errFailNow) }

func (c *checkTB) FailNow() { c.fail(""); panic(errFailNow) }

func (c *checkTB) Fail() { c.fail("") }

func (c *checkTB) Failed() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.failed }

func (c *checkTB) fail(msg string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failed = true
	if msg != "" {
		c.msgs = append(c.msgs, msg)
	}
}

// Check runs rapid.Check on prop, under the name "toolproof/"+name (rapid names its fail file
// after it), and returns nil when it passed, else the first line of what rapid said.
func Check(name string, prop func(*rapid.T)) (err error) {
	tb := &checkTB{name: name}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				panic(r)
			}
		}()
		rapid.Check(tb, prop)
	}()
	if !tb.Failed() {
		return nil
	}
	msg := strings.Join(tb.msgs, "\n")
	if i := strings.Index(msg, "\n"); i > 0 {
		msg = msg[:i]
	}
	return errors.New(msg)
}

// Halt ends a property's check from inside the property (see CheckHaltable).
type Halt struct{ ended bool }

// End ends the goroutine rapid runs in; CheckHaltable returns ErrHalted. Call it only from the
// property of a CheckHaltable, on its goroutine.
func (h *Halt) End() {
	h.ended = true
	runtime.Goexit()
}

// ErrHalted is what CheckHaltable returns when the property ended the check.
var ErrHalted = errors.New("toolproof: the check was ended before rapid was done")

// CheckHaltable is Check for a property that may end the check early with h.End: rapid runs in
// a goroutine of its own, which the property ends. A property that ends the goroutine itself
// (t.Fatal in a Go gate) ends the caller's too, as it would inline; a panic goes on in the
// caller.
func CheckHaltable(name string, prop func(*rapid.T), h *Halt) error {
	var err error
	var panicked any
	finished := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				panicked = r
			}
		}()
		err = Check(name, prop)
		finished = true
	}()
	<-done
	switch {
	case panicked != nil:
		panic(panicked)
	case finished:
		return err
	case h.ended:
		return ErrHalted
	}
	runtime.Goexit()
	return nil
}
