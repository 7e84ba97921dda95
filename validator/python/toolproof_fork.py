"""Fork server for toolproof/1 adapters written in Python (validator/stdio/PROTOCOL.md, "Fork
server").

A validator that crashes is restarted once per crash, and a Python process that imports its
validation library takes a tenth of a second or more to start: for a validator that crashes
often, the starts cost more than the checks. toolproof therefore starts one more process of the
adapter with TOOLPROOF_FORK_FD set to the descriptor of a Unix socket, and asks it for each
process after that. The adapter calls serve_forks instead of its own loop; each request carries
the three ends of a new child's stdin, stdout and stderr, and the server forks a child, its
imports already done, that runs the adapter's loop on them.

Use it from an adapter in three lines:

    if os.environ.get(toolproof_fork.ENV):    # in main, before the loop
        toolproof_fork.serve_forks(int(os.environ[toolproof_fork.ENV]), serve)
    ... "fork": toolproof_fork.available() ...  # in the hello answer

Needs only the standard library (Python 3.9 or later, on Linux).
"""
import json
import os
import select
import signal
import socket
import sys
import traceback

ENV = "TOOLPROOF_FORK_FD"


def available():
    """Whether serve_forks can run here: the hello answer says "fork": available()."""
    return sys.platform.startswith("linux") and hasattr(socket, "recv_fds") and hasattr(os, "fork")


def serve_forks(fd, serve):
    """Serves fork requests on the socket fd until toolproof closes it; each child runs serve()
    on its own stdin and stdout, then exits. Children still running at the end are killed."""
    sock = socket.socket(fileno=fd)
    wake = os.pipe()
    for end in wake:
        os.set_blocking(end, False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    signal.set_wakeup_fd(wake[1])
    children = set()
    try:
        while True:
            ready, _, _ = select.select([sock, wake[0]], [], [])
            if wake[0] in ready:
                drain(wake[0])
            reap(sock, children)
            if sock in ready:
                msg, fds, _, _ = socket.recv_fds(sock, 1 << 16, 3)
                if not msg:
                    break  # toolproof closed the socket
                fork_one(sock, msg, fds, children, wake, serve)
    finally:
        for pid in children:
            for target in (-pid, pid):
                try:
                    os.kill(target, signal.SIGKILL)
                except OSError:
                    pass


def drain(fd):
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def send(sock, message):
    sock.send(json.dumps(message).encode())


def reap(sock, children):
    """Says how each child that has exited ended: {"op":"exited","pid":P,"code":C} or
    {"op":"exited","pid":P,"signal":S,"core":B}."""
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        message = {"op": "exited", "pid": pid}
        if os.WIFSIGNALED(status):
            message.update(signal=os.WTERMSIG(status), core=os.WCOREDUMP(status))
        else:
            message["code"] = os.WEXITSTATUS(status)
        send(sock, message)


def fork_one(sock, msg, fds, children, wake, serve):
    """Answers one request {"op":"fork","id":N} carrying three descriptors with
    {"op":"forked","id":N,"pid":P}, or with an "error" instead of the pid."""
    try:
        request = json.loads(msg)
    except ValueError:
        request = {}
    rid = request.get("id") if isinstance(request, dict) else None
    if not isinstance(request, dict) or request.get("op") != "fork" or len(fds) != 3:
        for f in fds:
            os.close(f)
        send(sock, {"op": "forked", "id": rid, "error": "a fork request carries op fork, an id and three descriptors"})
        return
    pid = os.fork()
    if pid == 0:
        become_child(sock, fds, wake, serve)
    for f in fds:
        os.close(f)
    children.add(pid)
    send(sock, {"op": "forked", "id": rid, "pid": pid})


def become_child(sock, fds, wake, serve):
    """Runs serve() in a forked child on the descriptors it was given; never returns."""
    code = 0
    try:
        os.setpgid(0, 0)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        sock.close()
        for end in wake:
            os.close(end)
        for target, f in enumerate(fds):
            os.dup2(f, target)
        for f in fds:
            if f > 2:
                os.close(f)
        os.environ.pop(ENV, None)
        serve()
    except BrokenPipeError:
        pass
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        os._exit(code)
