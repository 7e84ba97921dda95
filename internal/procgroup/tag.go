package procgroup

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"slices"
)

// tagVariable is the environment variable that carries a started process's Tag to everything
// it starts.
const tagVariable = "TOOLPROOF_PROCESS_TAG"

// A Tag marks one started process and everything it starts: each carries it in its
// environment, so that End finds them even after they left the process group (setsid) or
// their parent died. The zero Tag marks nothing.
type Tag struct{ entry string } // "TOOLPROOF_PROCESS_TAG=<random hex>"

// NewTag is a new Tag, for a process started some other way than Set (a child a fork server
// forks sets Env in its environment itself).
func NewTag() Tag {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return Tag{tagVariable + "=" + hex.EncodeToString(b[:])}
}

// Env is the environment variable that carries t: its name and value ("" for the zero Tag).
func (t Tag) Env() (name, value string) {
	if t.entry == "" {
		return tagVariable, ""
	}
	return tagVariable, t.entry[len(tagVariable)+1:]
}

// tag gives cmd a new Tag in its environment (the command's own, or toolproof's when it has
// none).
func tag(cmd *exec.Cmd) Tag {
	t := NewTag()
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		return len(kv) > len(tagVariable) && kv[:len(tagVariable)+1] == tagVariable+"="
	})
	cmd.Env = append(env, t.entry)
	return t
}
