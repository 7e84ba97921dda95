"""Fork server for toolproof/1 adapters written in Python (validator/stdio/PROTOCOL.md, "Fork
server").

A validator that crashes is restarted once per crash, and a Python process that imports its
validation library takes a tenth of a second or more to start: for a validator that crashes
often, the starts cost more than the checks. toolproof therefore starts one more process of the
adapter with TOOLPROOF_FORK_FD set to the descriptor of a Unix socket, and asks it for each
process after that. Each request carries the three ends of a new child's stdin, stdout and
stderr, and the server forks a child, its imports already done, that runs the adapter's loop on
them.

Use it from an adapter in two lines:

    toolproof_fork.fork_point()   # in main, on the line before the loop
    ... "fork": toolproof_fork.available() ...  # in the hello answer

fork_point returns at once in a process started anew. In the fork server it serves until
toolproof closes the socket, then exits; it returns in each forked child, so that the child
runs the same loop, from the same line, as a process started anew: it exits with the same
status and writes the same traceback on an exception nobody catches.

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
    """Whether fork_point can serve here: the hello answer says "fork": available()."""
    return sys.platform.startswith("linux") and hasattr(socket, "recv_fds") and hasattr(os, "fork")


def fork_point():
    """Returns at once unless this process was started as a fork server (TOOLPROOF_FORK_FD set).
    A fork server serves fork requests until toolproof closes its socket, then exits; the call
    returns in each child it forks, with the child's stdin, stdout and stderr in place."""
    fd = os.environ.pop(ENV, None)  # a child, like a process started anew, has no ENV
    if fd is None:
        return
    if not serve_forks(int(fd)):
        sys.stderr.flush()
        os._exit(0)


def serve_forks(fd):
    """Serves fork requests on the socket fd until toolproof closes it, then kills the children
    still running and returns False; returns True in each forked child."""
    sock = open_socket(fd)
    server = os.getpid()
    wake = os.pipe()
    for end in wake:
        os.set_blocking(end, False)
    old_handler = signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    old_wakeup = signal.set_wakeup_fd(wake[1])
    restore = (old_handler, old_wakeup)
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
                    for f in fds:
                        os.close(f)
                    return False  # toolproof closed the socket
                if fork_one(sock, msg, fds, children, wake, restore):
                    return True
    finally:
        if os.getpid() == server:  # not in a child on its way out
            for pid in children:
                for target in (-pid, pid):
                    try:
                        os.kill(target, signal.SIGKILL)
                    except OSError:
                        pass


def open_socket(fd):
    """The socket toolproof passed as descriptor fd; a process without it exits at once, saying
    why (toolproof then starts each process anew)."""
    try:
        sock = socket.socket(fileno=fd)
        if sock.family == socket.AF_UNIX and sock.type == socket.SOCK_SEQPACKET:
            return sock
        why = "a socket of another kind"
    except OSError as e:
        why = str(e)
    sys.stderr.write("toolproof_fork: %s=%d, but descriptor %d is not toolproof's socket (%s): "
                     "a wrapper between toolproof and this process may not pass it on\n" % (ENV, fd, fd, why))
    sys.stderr.flush()
    os._exit(1)


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
    {"op":"exited","pid":P,"signal":S,"core":B}. Only the server's forked children are waited
    for: a process the adapter started itself is left to the adapter."""
    for pid in list(children):
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            children.discard(pid)  # not ours to report any more
            continue
        if done == 0:
            continue
        children.discard(pid)
        message = {"op": "exited", "pid": pid}
        if os.WIFSIGNALED(status):
            message.update(signal=os.WTERMSIG(status), core=os.WCOREDUMP(status))
        else:
            message["code"] = os.WEXITSTATUS(status)
        send(sock, message)


def fork_one(sock, msg, fds, children, wake, restore):
    """Answers one request {"op":"fork","id":N} carrying three descriptors with
    {"op":"forked","id":N,"pid":P}, or with an "error" instead of the pid. Returns True in the
    child, its descriptors in place."""
    try:
        request = json.loads(msg)
    except ValueError:
        request = {}
    rid = request.get("id") if isinstance(request, dict) else None
    if not isinstance(request, dict) or request.get("op") != "fork" or len(fds) != 3:
        for f in fds:
            os.close(f)
        send(sock, {"op": "forked", "id": rid, "error": "a fork request carries op fork, an id and three descriptors"})
        return False
    try:
        pid = os.fork()
    except OSError as e:
        pid, error = -1, "fork: %s" % e
    if pid == 0:
        become_child(sock, fds, wake, restore, request.get("env"))
        return True
    for f in fds:
        os.close(f)
    if pid < 0:
        send(sock, {"op": "forked", "id": rid, "error": error})
        return False
    children.add(pid)
    send(sock, {"op": "forked", "id": rid, "pid": pid})
    return False


def become_child(sock, fds, wake, restore, env):
    """Makes a forked child a process like one started anew: a process group of its own, the
    environment entries of the request (the tag of what it starts), the signal handling the
    adapter had, the three descriptors as its 0, 1 and 2, none of the server's. An error here
    ends the child; it never reaches the server's loop."""
    try:
        os.setpgid(0, 0)
        if isinstance(env, dict):
            for name, value in env.items():
                if isinstance(name, str) and isinstance(value, str):
                    os.environ[name] = value
        old_handler, old_wakeup = restore
        signal.set_wakeup_fd(old_wakeup)
        signal.signal(signal.SIGCHLD, old_handler if old_handler is not None else signal.SIG_DFL)
        sock.close()
        for end in wake:
            os.close(end)
        for target, f in enumerate(fds):
            os.dup2(f, target)
        for f in fds:
            if f > 2:
                os.close(f)
    except BaseException:
        traceback.print_exc()
        os._exit(70)
