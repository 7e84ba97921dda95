package stdio

import (
	"os"
	"os/exec"

	"github.com/toolproof/toolproof/internal/procgroup"
)

// process is one running validator process: started anew (execProcess) or forked by the
// validator's fork server (forkserver.go). A child serves toolproof/1 on its pipes either way.
type process interface {
	pid() int
	kill()       // ends the process and its process group
	wait() error // waits for the exit; nil for status 0, else an error saying how it ended
}

// execProcess is a process started from the command line, and the tag of what it starts.
type execProcess struct {
	cmd *exec.Cmd
	tag procgroup.Tag
}

func (e execProcess) pid() int { return e.cmd.Process.Pid }
func (e execProcess) kill()    { procgroup.Kill(e.cmd.Process) }

// wait waits for the process, then ends what it started that outlived it, in its group or not.
func (e execProcess) wait() error {
	err := e.cmd.Wait()
	e.tag.End()
	return err
}

// pipes are this side's ends of a child's standard input, output and error.
type pipes struct{ stdin, stdout, stderr *os.File }

// newPipes makes the three pipes of a child: ours, and the child's (its stdin's read end, its
// stdout's and stderr's write ends). On an error, none is left open.
func newPipes() (ours, theirs pipes, err error) {
	var files []*os.File
	pipe := func() (r, w *os.File) {
		if err == nil {
			if r, w, err = os.Pipe(); err == nil {
				files = append(files, r, w)
			}
		}
		return r, w
	}
	theirs.stdin, ours.stdin = pipe()
	ours.stdout, theirs.stdout = pipe()
	ours.stderr, theirs.stderr = pipe()
	if err != nil {
		for _, f := range files {
			f.Close()
		}
		return pipes{}, pipes{}, err
	}
	return ours, theirs, nil
}

func (p pipes) close() {
	p.stdin.Close()
	p.stdout.Close()
	p.stderr.Close()
}

// startExec starts the command of c's options with a pipe on each of its standard input,
// output and error.
func (c *Client) startExec() (process, pipes, error) {
	cmd := exec.Command(c.opts.Command[0], c.opts.Command[1:]...)
	cmd.Dir = c.opts.Dir
	cmd.Env = c.opts.Env
	tag := procgroup.Set(cmd)
	ours, theirs, err := newPipes()
	if err != nil {
		return nil, pipes{}, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = theirs.stdin, theirs.stdout, theirs.stderr
	err = cmd.Start()
	theirs.close() // the child's ends are the child's now
	if err != nil {
		ours.close()
		return nil, pipes{}, err
	}
	return execProcess{cmd, tag}, ours, nil
}
