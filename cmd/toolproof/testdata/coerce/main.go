// Command coerce is a deliberately broken toolproof/1 validator for the command-line tests: it
// validates with the reference gatekeeper, but when the arguments are invalid and turning one
// numeric string (" 20", "1.0") into the number it spells makes them valid, it accepts them,
// the way gates with type coercion do.
//
//	coerce [-value] [-fence] [-name NAME] [-refuse TOOL,...] [-die-on TEXT] [-hang-on TEXT]
//	       [-die-rate N] [-strict] [-error-answer TEXT] [-log-starts FILE] [-sleep D] [-spawn FILE]
//
// -value passes on the coerced value (an exact repair of a stringified number); without it the
// call is accepted with nothing said about the value passed on. -refuse answers ok:false for the
// tools named. -fence also accepts JSON inside a markdown code fence (```json ... ```), as
// lenient gates do. -die-on makes the process exit, without answering or flushing, on any call
// whose argument text contains TEXT (a crash only some calls cause); -die-rate on one call in N,
// chosen by a hash of the argument text. -hang-on never answers a call whose argument text
// contains TEXT and answers the others (toolproof/1 matches answers by id), so which calls get
// no verdict is decided by their text alone, not by which calls reached the process after it (a
// validator stuck on some input). -strict coerces nothing: a correct gate (with -die-on, one
// that only crashes). -error-answer, with -strict, answers each rejection as an unclear error
// answer (error_answer "refused") whose issue says TEXT: a tool refusing in words of its own, for
// --reject-pattern and --ran-pattern to read. It reads requests one line at a time and answers
// the others in order.
package main

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/toolproof/toolproof/internal/jsonvalue"
	"github.com/toolproof/toolproof/validator"
	"github.com/toolproof/toolproof/validator/oracle"
	"github.com/toolproof/toolproof/validator/tool"
)

type request struct {
	Op              string          `json:"op"`
	ID              json.RawMessage `json:"id"`
	Tool            json.RawMessage `json:"tool"` // an object in "tool", a name in "validate"
	Arguments       *string         `json:"arguments"`
	ArgumentsBase64 *string         `json:"arguments_base64"`
}

type result struct {
	Op     string            `json:"op"`
	ID     json.RawMessage   `json:"id"`
	Valid  *bool             `json:"valid,omitempty"`
	Value  json.RawMessage   `json:"value,omitempty"`
	Issues []validator.Issue `json:"issues,omitempty"`
	Error  string            `json:"error,omitempty"`
	// Unclear and ErrorAnswer: an error answer in the tool's own words (-error-answer)
	Unclear     string `json:"unclear,omitempty"`
	ErrorAnswer string `json:"error_answer,omitempty"`
}

func main() {
	withValue := flag.Bool("value", false, "pass on the coerced value")
	name := flag.String("name", "coerce", "the name given in hello")
	refuse := flag.String("refuse", "", "comma-separated tools to refuse")
	fence := flag.Bool("fence", false, "accept JSON inside a markdown code fence")
	dieOn := flag.String("die-on", "", "exit on any call whose arguments contain this text")
	hangOn := flag.String("hang-on", "",
		"never answer a call whose arguments contain this text (the others are answered)")
	dieRate := flag.Int("die-rate", 0,
		"exit on one call in N, chosen by a hash of its arguments (the same calls every run)")
	strict := flag.Bool("strict", false, "coerce nothing")
	errorAnswer := flag.String("error-answer", "",
		"with -strict: answer each rejection as an unclear error answer saying this text")
	startLog := flag.String("log-starts", "", "append a line to this file at each start (to count restarts)")
	spawn := flag.String("spawn", "",
		"start `sleep 300` in the background, in this process group, and append its pid and this one's to this file")
	slow := flag.Duration("sleep", 0, "wait this long before each answer")
	callLog := flag.String("log-calls", "",
		"append a line to this file at each call answered (to wait for a run under way)")
	chatter := flag.Int("chatter", 0,
		"write this many lines of box drawing to stderr at start, then one toolproof adapter note")
	flag.Parse()
	for i := 0; i < *chatter; i++ {
		fmt.Fprintf(os.Stderr, "│ thinking %d ─────────┤\n", i)
	}
	if *chatter > 0 {
		fmt.Fprintln(os.Stderr, "toolproof adapter: a note of the adapter's own")
	}
	calls := appendLog(*callLog)
	if *spawn != "" {
		spawnSleeper(*spawn)
	}
	if *startLog != "" {
		if f, err := os.OpenFile(*startLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.WriteString("start\n")
			f.Close()
		}
	}
	refused := map[string]bool{}
	for _, n := range strings.Split(*refuse, ",") {
		if n != "" {
			refused[n] = true
		}
	}
	gates := map[string]*oracle.Gatekeeper{}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	send := func(m any) {
		b, err := json.Marshal(m)
		if err != nil {
			panic(err)
		}
		out.Write(append(b, '\n'))
		if in.Buffered() == 0 {
			out.Flush()
		}
	}
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var m request
			if json.Unmarshal(line, &m) != nil {
				fmt.Fprintln(os.Stderr, "coerce: a line that is not a request")
				continue
			}
			switch m.Op {
			case "hello":
				send(map[string]string{"op": "hello", "protocol": "toolproof/1", "name": *name, "version": "0"})
			case "tool":
				var t tool.Tool
				if err := json.Unmarshal(m.Tool, &t); err != nil {
					send(map[string]any{"op": "tool", "name": nil, "ok": false, "error": err.Error()})
					continue
				}
				delete(gates, t.Name)
				if refused[t.Name] {
					send(map[string]any{"op": "tool", "name": t.Name, "ok": false, "error": "refused on purpose"})
					continue
				}
				gk, err := oracle.Compile(t)
				if err != nil {
					send(map[string]any{"op": "tool", "name": t.Name, "ok": false, "error": err.Error()})
					continue
				}
				gates[t.Name] = gk
				send(map[string]any{"op": "tool", "name": t.Name, "ok": true})
			case "validate":
				time.Sleep(*slow)
				if *hangOn != "" && strings.Contains(argText(m), *hangOn) {
					out.Flush() // the answers before it are given; this one never is
					continue
				}
				if (*dieOn != "" && strings.Contains(argText(m), *dieOn)) ||
					(*dieRate > 0 && hash(argText(m))%uint32(*dieRate) == 0) {
					fmt.Fprintln(os.Stderr, "coerce: dying on purpose")
					os.Exit(3)
				}
				if *strict {
					send(strictCheck(m, gates, *errorAnswer))
				} else {
					send(check(m, gates, *withValue, *fence))
				}
				if calls != nil {
					calls.WriteString("call\n")
				}
			}
		}
		if err == io.EOF {
			out.Flush()
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "coerce:", err)
			os.Exit(1)
		}
	}
}

func check(m request, gates map[string]*oracle.Gatekeeper, withValue, fence bool) result {
	r, gk := lookup(m, gates)
	if gk == nil {
		return r
	}
	reject := func(is ...validator.Issue) result {
		f := false
		r.Valid, r.Issues = &f, is
		return r
	}
	raw, bad := arguments(m)
	if bad != "" {
		r.Error = bad
		return r
	}
	if fence {
		s := strings.TrimSpace(string(raw))
		if strings.HasPrefix(s, "```") && strings.HasSuffix(s, "```") {
			s = strings.TrimSuffix(strings.TrimPrefix(s, "```"), "```")
			s = strings.TrimPrefix(s, "json")
			raw = []byte(s)
		}
	}
	v, err := jsonvalue.Parse(raw)
	if err != nil {
		return reject(validator.Issue{Path: "", Message: "arguments are not valid JSON", Keyword: "json"})
	}
	if _, ok := v.(map[string]any); !ok {
		return reject(validator.Issue{Path: "", Message: "arguments must be a JSON object", Keyword: "type"})
	}
	issues := gk.Issues(v)
	if len(issues) == 0 {
		t := true
		r.Valid = &t
		return r
	}
	// The bug: one numeric string read as the number it spells.
	for _, p := range numericStrings(v, "") {
		s, _ := jsonvalue.Get(v, p)
		c := jsonvalue.MustClone(v)
		set(c, p, json.Number(strings.TrimSpace(s.(string))))
		if gk.Valid(c) {
			t := true
			r.Valid = &t
			if withValue {
				r.Value = jsonvalue.MustMarshal(c)
			}
			return r
		}
	}
	return reject(issues...)
}

// numericStrings lists the JSON Pointers of the strings in v that spell a JSON number once
// trimmed of spaces.
func numericStrings(v any, at string) []string {
	var out []string
	switch x := v.(type) {
	case string:
		if jsonvalue.IsNumber(strings.TrimSpace(x)) {
			out = append(out, at)
		}
	case map[string]any:
		for k, e := range x {
			out = append(out, numericStrings(e, at+"/"+jsonvalue.EscapeToken(k))...)
		}
	case []any:
		for i, e := range x {
			out = append(out, numericStrings(e, at+"/"+strconv.Itoa(i))...)
		}
	}
	return out
}

// set replaces the value at JSON Pointer p (not the root) inside v.
func set(v any, p string, to any) {
	toks, _ := jsonvalue.SplitPointer(p)
	for i, t := range toks {
		last := i == len(toks)-1
		switch c := v.(type) {
		case map[string]any:
			if last {
				c[t] = to
			}
			v = c[t]
		case []any:
			n, _ := strconv.Atoi(t)
			if last {
				c[n] = to
			}
			v = c[n]
		}
	}
}

// arguments is the argument text of a validate request, or what is wrong with the request.
func arguments(m request) (raw []byte, bad string) {
	switch {
	case m.Arguments != nil:
		return []byte(*m.Arguments), ""
	case m.ArgumentsBase64 != nil:
		b, err := base64.StdEncoding.DecodeString(*m.ArgumentsBase64)
		if err != nil {
			return nil, "bad base64"
		}
		return b, ""
	}
	return nil, "no arguments"
}

// argText is the argument text, empty when the request has none.
func argText(m request) string {
	raw, _ := arguments(m)
	return string(raw)
}

// strictCheck is the reference gatekeeper's verdict, unchanged.
func strictCheck(m request, gates map[string]*oracle.Gatekeeper, errorAnswer string) result {
	r, gk := lookup(m, gates)
	if gk == nil {
		return r
	}
	_, err := gk.Parse([]byte(argText(m)))
	ok := err == nil
	r.Valid = &ok
	if err != nil {
		r.Issues = validator.IssuesOf(err)
		if errorAnswer != "" {
			r.Valid, r.Unclear, r.ErrorAnswer = nil, "isError: "+errorAnswer, "refused"
			r.Issues = []validator.Issue{{Path: r.Issues[0].Path, Message: errorAnswer + ": " + r.Issues[0].Message}}
		}
	}
	return r
}

// hash is FNV-1a of s.
func hash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	return h
}

// lookup starts the result of a validate request and finds its tool's gate (nil: the result
// says the tool is unknown).
func lookup(m request, gates map[string]*oracle.Gatekeeper) (result, *oracle.Gatekeeper) {
	r := result{Op: "result", ID: m.ID}
	var name string
	_ = json.Unmarshal(m.Tool, &name)
	gk := gates[name]
	if gk == nil {
		r.Error = fmt.Sprintf("unknown tool %q", name)
	}
	return r, gk
}

// spawnSleeper starts a child that outlives nothing on its own (sleep 300) in this process's
// group, as wrappers do, and records both pids in file, one a line.
func spawnSleeper(file string) {
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "coerce:", err)
		return
	}
	if f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintf(f, "%d\n%d\n", os.Getpid(), cmd.Process.Pid)
		f.Close()
	}
}

// appendLog opens path to append to, or returns nil when path is empty or cannot be opened.
func appendLog(path string) *os.File {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil
	}
	return f
}
