"""A toolproof/1 adapter for the fork server tests (fork_test.go): it accepts every call, exits
with status 3 on a call whose arguments hold "~", and never answers one that holds "hang".
A call holding "quit" ends it with sys.exit(), one holding "bye" with sys.exit("bye from forky"),
one holding "boom" with an exception nobody catches.
Environment: FORKY_STARTS, a file that gets a line at each start anew (a forked child is not
started anew); FORKY_SERVER=exit, a fork server that exits at once; FORKY_SERVER=refuse, one
that answers every fork request with an error; FORKY_SERVER=once, one whose fork fails after
the first; FORKY_SERVER=mute, one that forks but never reports an exit; FORKY_SERVER=silent,
one that never answers; FORKY_ORPHAN, the seconds of the `sleep` a call holding
"orphan" starts in a session of its own before it exits with status 3; FORKY_HELPER, a fork
server that started a process of its own before serving; FORKY_NOFORK, no fork server
offered."""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import toolproof_fork  # noqa: E402

if os.environ.get("FORKY_STARTS"):
    with open(os.environ["FORKY_STARTS"], "a") as f:
        f.write("start\n")


def answer(m):
    op = m.get("op")
    if op == "hello":
        offer = toolproof_fork.available() and not os.environ.get("FORKY_NOFORK")
        return {"op": "hello", "protocol": "toolproof/1", "name": "forky", "version": "1", "fork": offer}
    if op == "tool":
        return {"op": "tool", "name": m["tool"]["name"], "ok": True}
    if op == "validate":
        if "~" in m["arguments"]:
            os._exit(3)
        if "orphan" in m["arguments"]:
            import subprocess
            subprocess.Popen(["sleep", os.environ.get("FORKY_ORPHAN", "3600")], start_new_session=True,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            os._exit(3)
        if "hang" in m["arguments"]:
            time.sleep(3600)
        if "quit" in m["arguments"]:
            sys.exit()
        if "bye" in m["arguments"]:
            sys.exit("bye from forky")
        if "boom" in m["arguments"]:
            raise RuntimeError("boom")
        return {"op": "result", "id": m["id"], "valid": True}
    return None


def serve():
    for line in sys.stdin:
        if line.strip():
            a = answer(json.loads(line))
            if a is not None:
                sys.stdout.write(json.dumps(a) + "\n")
                sys.stdout.flush()


def requests(fd):
    """The fork requests on the socket fd, each (socket, id, descriptors), until it ends."""
    import socket
    sock = socket.socket(fileno=fd)
    while True:
        msg, fds, _, _ = socket.recv_fds(sock, 4096, 3)
        if not msg:
            return
        yield sock, json.loads(msg)["id"], fds


def refuse(fd):
    for sock, rid, fds in requests(fd):
        for f in fds:
            os.close(f)
        sock.send(json.dumps({"op": "forked", "id": rid, "error": "refused"}).encode())


def mute(fd):
    for sock, rid, fds in requests(fd):
        pid = os.fork()
        if pid == 0:
            os.setpgid(0, 0)
            sock.close()
            for target, f in enumerate(fds):
                os.dup2(f, target)
            serve()
            os._exit(0)
        for f in fds:
            os.close(f)
        sock.send(json.dumps({"op": "forked", "id": rid, "pid": pid}).encode())


def fail_after_first_fork():
    fork, forks = os.fork, []

    def failing():
        if forks:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        forks.append(1)
        return fork()
    os.fork = failing


def start_helper():
    """A process of the server's own, exited but not waited for when the server starts."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)


fd = os.environ.get(toolproof_fork.ENV)
if fd is not None and os.environ.get("FORKY_SERVER") == "exit":
    sys.exit(0)
if fd is not None and os.environ.get("FORKY_SERVER") == "refuse":
    refuse(int(fd))
    sys.exit(0)
if fd is not None and os.environ.get("FORKY_SERVER") == "silent":
    while True:
        time.sleep(3600)
if fd is not None and os.environ.get("FORKY_SERVER") == "mute":
    mute(int(fd))
    sys.exit(0)
if fd is not None and os.environ.get("FORKY_SERVER") == "once":
    fail_after_first_fork()
if fd is not None and os.environ.get("FORKY_HELPER"):
    start_helper()
toolproof_fork.fork_point()
serve()
