package harness

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// This file is the one seam between toolproof's options and rapid. rapid reads its settings
// (checks, seed, fail files) from process-wide flags, and asks testing.Short, which panics
// unless the testing flags are registered and parsed. So, and only here:
//   - outside go test, the testing flags are registered (testing.Init) and the command line is
//     marked parsed, once, with no arguments;
//   - a run sets rapid's flags to its Options for as long as it runs (and rapid's shrink time to
//     a day: shrinking is bounded by steps, see shrink.go). Runs with the same
//     settings go on side by side; a run with other settings waits until they end. A run
//     started inside a gate of another run waits too: the outer run gives up on that call
//     after Options.Timeout, as on any hung gate, ends, and lets it go on
//     (TestNestedRunWithOtherSettings). A Bounded gate must not start runs.
// Nothing else in toolproof reads or writes process flags.

// rapidConfig is what a run asks of rapid.
type rapidConfig struct {
	checks     int
	seed       uint64
	noFailFile bool
}

// shrinkTime is what rapid is told it may spend minimising: all the time there is (rapid caps
// it at a day less a step), since the harness bounds shrinking by steps (see shrinkSteps).
const shrinkTime = 24 * time.Hour

type rapidSeam struct {
	mu         sync.Mutex
	cond       *sync.Cond
	active     int
	current    rapidConfig
	original   map[string]string
	randomSeed uint64 // the seed of runs that give none, drawn once
}

var seam = func() *rapidSeam { s := &rapidSeam{}; s.cond = sync.NewCond(&s.mu); return s }()

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

// resolve fills in what o leaves open: checks from rapid's -rapid.checks (100 by default), the
// seed from -rapid.seed, else one random seed for the whole process (the report says which).
func (s *rapidSeam) resolve(o Options, noFailFile bool) rapidConfig {
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
	c := rapidConfig{checks: o.Checks, seed: o.Seed, noFailFile: noFailFile || orig["rapid.nofailfile"] == "true"}
	if c.checks <= 0 {
		c.checks, _ = strconv.Atoi(orig["rapid.checks"])
		if c.checks <= 0 {
			c.checks = 100
		}
	}
	if c.seed == 0 {
		c.seed, _ = strconv.ParseUint(orig["rapid.seed"], 10, 64)
	}
	if c.seed == 0 {
		// One random seed for the process, so that runs that leave the seed open share rapid's
		// flags and go on side by side.
		s.mu.Lock()
		for s.randomSeed == 0 {
			var b [8]byte
			_, _ = rand.Read(b[:])
			s.randomSeed = binary.LittleEndian.Uint64(b[:]) >> 1
		}
		c.seed = s.randomSeed
		s.mu.Unlock()
	}
	return c
}

// acquire sets rapid's flags to c and holds them until release is called.
func (s *rapidSeam) acquire(c rapidConfig) (release func()) {
	s.mu.Lock()
	for s.active > 0 && s.current != c {
		s.cond.Wait()
	}
	if s.active == 0 {
		s.current = c
		_ = flag.Set("rapid.checks", strconv.Itoa(c.checks))
		_ = flag.Set("rapid.seed", strconv.FormatUint(c.seed, 10))
		_ = flag.Set("rapid.nofailfile", strconv.FormatBool(c.noFailFile))
		_ = flag.Set("rapid.shrinktime", shrinkTime.String())
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

// errFailNow stops rapid.Check when the property failed; runCheck recovers it.
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

// runCheck runs rapid.Check on prop and returns nil when it passed, else what rapid said.
func runCheck(name string, prop func(*rapid.T)) (err error) {
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
