"""A toolproof/1 adapter for the fork server tests (fork_test.go): it accepts every call, exits
with status 3 on a call whose arguments hold "~", and never answers one that holds "hang".
Environment: FORKY_STARTS, a file that gets a line at each start anew (a forked child is not
started anew); FORKY_SERVER=exit, a fork server that exits at once; FORKY_SERVER=refuse, one
that answers every fork request with an error; FORKY_NOFORK, no fork server offered."""
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
        if "hang" in m["arguments"]:
            time.sleep(3600)
        return {"op": "result", "id": m["id"], "valid": True}
    return None


def serve():
    for line in sys.stdin:
        if line.strip():
            a = answer(json.loads(line))
            if a is not None:
                sys.stdout.write(json.dumps(a) + "\n")
                sys.stdout.flush()


def refuse(fd):
    import socket
    sock = socket.socket(fileno=fd)
    while True:
        msg, fds, _, _ = socket.recv_fds(sock, 4096, 3)
        if not msg:
            return
        for f in fds:
            os.close(f)
        sock.send(json.dumps({"op": "forked", "id": json.loads(msg)["id"], "error": "refused"}).encode())


fd = os.environ.get(toolproof_fork.ENV)
if fd is None:
    serve()
elif os.environ.get("FORKY_SERVER") == "exit":
    sys.exit(0)
elif os.environ.get("FORKY_SERVER") == "refuse":
    refuse(int(fd))
else:
    toolproof_fork.serve_forks(int(fd), serve)
