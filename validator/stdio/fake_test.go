package stdio

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/internal/syncbuf"
)

// The fake adapters run in the test binary itself: TestHelperProcess, with FAKE_ENV naming the
// behaviour and FAKE_N its parameter.
const (
	fakeEnv    = "TOOLPROOF_STDIO_FAKE"
	fakeNEnv   = "TOOLPROOF_STDIO_FAKE_N"
	fakeState  = "TOOLPROOF_STDIO_FAKE_STATE"
	fakeStarts = "TOOLPROOF_STDIO_FAKE_STARTS" // restartfails: how many starts succeed (1)
	hangText   = `{"hang":true}`
)

// fakeCommand is the command line that runs a fake adapter.
func fakeCommand() []string {
	return []string{os.Args[0], "-test.run=^TestHelperProcess$"}
}

// fakeEnviron is the environment of a fake adapter; under the race detector its exit must not
// wait the default second.
func fakeEnviron(vars ...string) []string {
	return append(append(os.Environ(), "GORACE=atexit_sleep_ms=0"), vars...)
}

func TestHelperProcess(t *testing.T) {
	behaviour := os.Getenv(fakeEnv)
	if behaviour == "" {
		t.Skip("runs only as a fake adapter")
	}
	n, _ := strconv.Atoi(os.Getenv(fakeNEnv))
	os.Exit(runFake(behaviour, n))
}

type fakeMsg struct {
	Op              string          `json:"op"`
	Protocol        string          `json:"protocol"`
	Tool            json.RawMessage `json:"tool"`
	ID              json.Number     `json:"id"`
	Arguments       *string         `json:"arguments"`
	ArgumentsBase64 *string         `json:"arguments_base64"`
}

type fake struct {
	behaviour string
	n         int
	out       *bufio.Writer
	tools     map[string]bool
	count     int // validate requests seen
	garbage   int
	first     bool // crashone, refuseone, refuselater: the first process started with this state file
	ordinal   int  // sparecloseout: how many processes started before this one
}

func runFake(behaviour string, n int) int {
	f := &fake{behaviour: behaviour, n: n, out: bufio.NewWriterSize(os.Stdout, 64<<10), tools: map[string]bool{}}
	switch behaviour {
	case "nohello":
		fmt.Fprintln(os.Stderr, "fake adapter: cannot start")
		return 1
	case "restartfails":
		allowed, _ := strconv.Atoi(os.Getenv(fakeStarts))
		if !claim(os.Getenv(fakeState), max(allowed, 1)) {
			fmt.Fprintln(os.Stderr, "fake adapter: refusing to start again")
			return 4
		}
	case "crashone", "refuseone", "closeoutone", "refuselater":
		f.first = claim(os.Getenv(fakeState), 1)
	case "sparecloseout":
		for f.ordinal = 0; !claim(fmt.Sprintf("%s.o%d", os.Getenv(fakeState), f.ordinal), 1); f.ordinal++ {
		}
	case "slowdieon":
		// Every start after the first takes n ms; the state file logs starts and calls.
		if !claim(os.Getenv(fakeState), 1) {
			time.Sleep(time.Duration(n) * time.Millisecond)
		}
		logState(fmt.Sprintf("start %d", os.Getpid()))
	}
	fmt.Fprintln(os.Stderr, "fake adapter: ready")
	if behaviour == "fast" {
		return runFastFake()
	}

	lines := make(chan []byte, 4096)
	go func() {
		r := bufio.NewReaderSize(os.Stdin, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				lines <- line
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	var held [][]byte // reverse: answers waiting
	flushHeld := func() {
		for i := len(held) - 1; i >= 0; i-- {
			f.out.Write(held[i])
		}
		held = held[:0]
		f.out.Flush()
	}
	idle := time.NewTimer(time.Hour)
	for {
		var line []byte
		var ok bool
		select {
		case line, ok = <-lines:
		case <-idle.C:
			flushHeld()
			continue
		}
		if !ok {
			flushHeld()
			if behaviour == "stubborn" {
				time.Sleep(time.Hour)
			}
			return 0
		}
		var m fakeMsg
		if err := json.Unmarshal(line, &m); err != nil {
			fmt.Fprintf(os.Stderr, "fake adapter: bad line: %v\n", err)
			continue
		}
		switch m.Op {
		case "hello":
			proto := "toolproof/1"
			if behaviour == "badhello" {
				proto = "toolproof/2"
			}
			f.write(map[string]any{"op": "hello", "protocol": proto, "name": "fake", "version": "1.0"})
			if behaviour == "sparecloseout" && f.ordinal == 2 {
				f.out.Flush()
				os.Stdout.Close()
				time.Sleep(time.Hour)
			}
		case "tool":
			var t struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			}
			json.Unmarshal(m.Tool, &t)
			refusedLater := behaviour == "refuselater" && !f.first && strings.HasPrefix(t.Name, "maybe")
			if strings.HasPrefix(t.Name, "refuse") ||
				(f.first && behaviour != "refuselater" && strings.HasPrefix(t.Name, "maybe")) || refusedLater {
				f.write(map[string]any{"op": "tool", "name": t.Name, "ok": false,
					"error": "schema does not compile: nope"})
			} else {
				f.tools[t.Name] = true
				f.write(map[string]any{"op": "tool", "name": t.Name, "ok": true})
			}
		case "validate":
			f.count++
			var toolName string
			json.Unmarshal(m.Tool, &toolName)
			text, isB64 := f.arguments(m)
			switch {
			case (behaviour == "crash" || behaviour == "restartfails" || f.first && behaviour == "crashone") &&
				f.count == n:
				f.out.Flush()
				fmt.Fprintf(os.Stderr, "fake adapter: crashing on request %d\n", n)
				os.Exit(3)
			case behaviour == "slowdieon" && !bytes.Contains(text, []byte(`"die":1`)):
				logState(fmt.Sprintf("serve %d", os.Getpid()))
			case (behaviour == "dieon" || behaviour == "slowdieon" || behaviour == "refuselater") &&
				bytes.Contains(text, []byte(`"die":1`)):
				fmt.Fprintln(os.Stderr, "fake adapter: dying on a marked call")
				os.Exit(3)
			case (behaviour == "closeout" || f.first && behaviour == "closeoutone" || behaviour == "sparecloseout" &&
				f.ordinal < 2) && f.count == n:
				f.out.Flush()
				os.Stdout.Close()
				time.Sleep(time.Hour)
			case behaviour == "stuck" && string(text) == hangText:
				f.out.Flush()
				time.Sleep(time.Hour) // reads nothing more: a closed stdin does not end it
			case behaviour == "hang" && string(text) == hangText:
				f.out.Flush()
				go func() {
					for range lines {
					}
					os.Exit(0)
				}()
				time.Sleep(time.Hour)
			}
			var answer []byte
			if !f.tools[toolName] && behaviour == "refuselater" {
				// A process that passes calls of a tool it refused: only toolproof can tell.
				answer = fakeJSON(map[string]any{"op": "result", "id": m.ID, "valid": true})
			} else if !f.tools[toolName] {
				answer = fakeJSON(map[string]any{"op": "result", "id": m.ID, "error": "unknown tool " + toolName})
			} else {
				answer = f.verdict(m.ID, text, isB64)
			}
			switch behaviour {
			case "reverse":
				held = append(held, answer)
				if len(held) >= n {
					flushHeld()
				} else {
					idle.Reset(20 * time.Millisecond)
				}
			case "partial":
				f.out.Flush()
				for i, k := 0, 0; i < 3; i++ {
					end := len(answer) * (i + 1) / 3
					os.Stdout.Write(answer[k:end])
					k = end
					time.Sleep(time.Millisecond)
				}
			default:
				f.out.Write(answer)
			}
		}
		if len(lines) == 0 {
			f.out.Flush()
		}
	}
}

// logState appends a line to the state file (slowdieon).
func logState(line string) {
	f, err := os.OpenFile(os.Getenv(fakeState)+".log", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.WriteString(line + "\n")
	f.Close()
}

// claim takes one of n start tokens (files path.0, path.1, ...), once per process and token.
func claim(path string, n int) bool {
	for i := 0; i < n; i++ {
		f, err := os.OpenFile(fmt.Sprintf("%s.%d", path, i), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return true
		}
	}
	return false
}

func (f *fake) arguments(m fakeMsg) ([]byte, bool) {
	if m.ArgumentsBase64 != nil {
		b, err := base64.StdEncoding.DecodeString(*m.ArgumentsBase64)
		if err != nil {
			panic(err)
		}
		return b, true
	}
	if m.Arguments == nil {
		panic("no arguments")
	}
	return []byte(*m.Arguments), false
}

func fakeJSON(m map[string]any) []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

func (f *fake) write(m map[string]any) { f.out.Write(fakeJSON(m)) }

func reject(id json.Number, path, msg string) []byte {
	return fmt.Appendf(nil,
		`{"op":"result","id":%s,"valid":false,"issues":[{"path":%q,"message":%q}]}`+"\n", id, path, msg)
}

// verdict is the answer of a correct adapter (valid iff the arguments are a JSON object), bent
// by the behaviour.
func (f *fake) verdict(id json.Number, text []byte, isB64 bool) []byte {
	if f.behaviour == "pid" || f.behaviour == "crashone" {
		return fakeJSON(map[string]any{"op": "result", "id": id, "valid": true,
			"value": map[string]any{"pid": os.Getpid()}})
	}
	if f.behaviour == "digest" {
		sum := sha256.Sum256(text)
		return fakeJSON(map[string]any{"op": "result", "id": id, "valid": true,
			"value": map[string]any{"len": len(text), "sha256": hex.EncodeToString(sum[:]), "base64": isB64}})
	}
	if isB64 {
		return reject(id, "", "not UTF-8")
	}
	v, err := jsonvalue.Parse(text)
	if err != nil {
		return reject(id, "", "not JSON")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return reject(id, "/", "root must be an object")
	}
	var pre []byte
	if f.behaviour == "garbage" {
		f.garbage++
		pre = []byte([]string{
			"this is not json\n",
			"[1,2,3]\n",
			`{"op":"result","id":999999999,"valid":true}` + "\n",
			`"just a string"` + "\n",
			`{"op":"result","valid":true}` + "\n",
			`{"op":"bogus"}` + "\n",
			"\n",
		}[f.garbage%7])
		switch obj["bad"] {
		case "novalid":
			pre = append(pre, fmt.Sprintf(`{"op":"result","id":%s}`+"\n", id)...)
		case "error":
			return fakeJSON(map[string]any{"op": "result", "id": id, "error": "internal adapter failure: boom"})
		case "notbool":
			return fakeJSON(map[string]any{"op": "result", "id": id, "valid": "yes"})
		case "issues":
			return fakeJSON(map[string]any{"op": "result", "id": id, "valid": false, "issues": "x"})
		case "broken":
			return []byte(fmt.Sprintf(`{"op":"result","id":%s,"valid":tr`+"\n", id))
		}
	}
	if f.behaviour == "value" {
		changed := false
		out := map[string]any{}
		for k, e := range obj {
			if s, ok := e.(string); ok && jsonvalue.IsNumber(s) {
				out[k] = json.Number(s)
				changed = true
			} else {
				out[k] = e
			}
		}
		if changed {
			return fakeJSON(map[string]any{"op": "result", "id": id, "valid": true, "value": out})
		}
	}
	return append(pre, `{"op":"result","id":`+string(id)+`,"valid":true}`+"\n"...)
}

// syncBuffer is a bytes.Buffer safe for concurrent writes, for Options.Stderr.
type syncBuffer = syncbuf.Buffer

func newSyncBuffer() *syncBuffer { return &syncBuffer{} }

// runFastFake is an adapter that does as little as it can, for benchmarks of the client: it
// accepts every tool and every call, reading no more of a validate message than its id.
func runFastFake() int {
	r := bufio.NewReaderSize(os.Stdin, 64<<10)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		switch {
		case bytes.HasPrefix(line, []byte(`{"op":"validate","id":`)):
			id := line[len(`{"op":"validate","id":`):]
			id = id[:bytes.IndexByte(id, ',')]
			w.WriteString(`{"op":"result","id":`)
			w.Write(id)
			w.WriteString(`,"valid":true}` + "\n")
		case bytes.HasPrefix(line, []byte(`{"op":"hello"`)):
			w.WriteString(`{"op":"hello","protocol":"toolproof/1","name":"fast","version":"1"}` + "\n")
		case bytes.HasPrefix(line, []byte(`{"op":"tool"`)):
			var m struct {
				Tool struct {
					Name string `json:"name"`
				} `json:"tool"`
			}
			json.Unmarshal(line, &m)
			w.Write(fakeJSON(map[string]any{"op": "tool", "name": m.Tool.Name, "ok": true}))
		}
		if r.Buffered() == 0 {
			w.Flush()
		}
		if err != nil {
			w.Flush()
			return 0
		}
	}
}
