"""The python-jsonschema adapter (validator/python) made to exit with status 3 on every call
whose arguments hold "~". Environment: PYDIE_STARTS, a file that gets a line at each start anew
(a process forked by the fork server is not started anew); PYDIE_NOFORK, no fork server
offered."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "validator", "python"))
import jsonschema_adapter as ja  # noqa: E402
import toolproof_fork  # noqa: E402

if os.environ.get("PYDIE_STARTS"):
    with open(os.environ["PYDIE_STARTS"], "a") as f:
        f.write("start\n")
if os.environ.get("PYDIE_NOFORK"):
    toolproof_fork.available = lambda: False
validate = ja.Adapter.validate


def dying(self, m):
    if "~" in (m.get("arguments") or ""):
        os._exit(3)
    return validate(self, m)


ja.Adapter.validate = dying
ja.main()
