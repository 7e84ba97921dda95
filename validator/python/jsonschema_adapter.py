#!/usr/bin/env python3
"""toolproof/1 adapter for python-jsonschema (validator/stdio/PROTOCOL.md).

The validator class is the one the schema's $schema names (Draft 2020-12 when it names none),
with its FORMAT_CHECKER (formats asserted, as the ajv adapter does). Arguments go through a
strict JSON parse gate first: json.loads with its default number parsing (floats as Python
floats, integers exact), the root must be an object, and repeated keys, NaN/Infinity, fractions
beyond the range of a double (1e400, which json.loads would make inf), a byte order mark and
invalid UTF-8 are rejected. Integers stay exact, as json.loads makes them: python-jsonschema's
own failures on them (multipleOf with a float divisor raises OverflowError on 10**400) show. Messages never repeat values: each issue says which
keyword failed, not what the value was. Needs only the `jsonschema` package.

Started with TOOLPROOF_FORK_FD set, it is a fork server instead (toolproof_fork.py): toolproof
then gets each process after the first ones by a fork, with jsonschema imported already.
"""
import base64
import importlib.metadata
import json
import math
import os
import re
import sys

import jsonschema
from jsonschema import validators


def log(text):
    sys.stderr.write("toolproof python adapter: %s\n" % text)
    sys.stderr.flush()


def root_issue(message, keyword):
    return {"valid": False, "issues": [{"path": "", "message": message, "keyword": keyword}]}


SURROGATE = re.compile("[\ud800-\udfff]")


class Rejected(Exception):
    pass


def no_duplicates(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise Rejected("an object repeats a key")
        obj[k] = v
    return obj


def no_constant(name):
    raise Rejected("%s is not JSON" % name)


def finite_float(text):
    f = float(text)
    if math.isinf(f):
        raise Rejected("a number beyond the range of a double")
    return f


def parse_arguments(text):
    """Raw text -> (data, None) or (None, rejection)."""
    try:
        data = json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant,
                          parse_float=finite_float)
    except Rejected as e:
        return None, root_issue("arguments are not valid JSON: %s" % e, "json")
    except (ValueError, RecursionError) as e:
        return None, root_issue("arguments are not valid JSON", "json")
    if not isinstance(data, dict):
        return None, root_issue("arguments must be a JSON object", "type")
    return data, None


def escape_token(token):
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(segments):
    return "".join("/" + escape_token(s) for s in segments)


def issues_of(error):
    """One or more issues for one error; required and additionalProperties point at the
    property they name, as PROTOCOL.md asks."""
    base = list(error.absolute_path)
    kw = error.validator
    msg = 'must satisfy "%s"' % kw
    inst, sch = error.instance, error.schema
    if kw == "required" and isinstance(inst, dict):
        names = [n for n in error.validator_value if n not in inst]
        if names:
            return [{"path": pointer(base + [n]), "message": "required property missing", "keyword": kw} for n in names]
    if kw == "additionalProperties" and isinstance(inst, dict) and isinstance(sch, dict):
        props = sch.get("properties", {}) or {}
        pats = list((sch.get("patternProperties", {}) or {}).keys())
        extra = [k for k in inst if k not in props and not any(re.search(p, k) for p in pats)]
        if extra:
            return [{"path": pointer(base + [k]), "message": "property not allowed", "keyword": kw} for k in extra]
    return [{"path": pointer(base), "message": msg, "keyword": kw}]


class Adapter:
    def __init__(self):
        self.tools = {}

    def compile(self, schema):
        if isinstance(schema, dict):
            cls = validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        else:
            cls = jsonschema.Draft202012Validator
        cls.check_schema(schema)
        v = cls(schema, format_checker=cls.FORMAT_CHECKER)

        def check(data):
            errs = list(v.iter_errors(data))
            if not errs:
                return {"valid": True}
            issues = []
            for e in errs:
                issues.extend(issues_of(e))
            return {"valid": False, "issues": issues}

        return check

    def register(self, tool):
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str):
            return {"op": "tool", "name": name, "ok": False, "error": "tool has no name"}
        self.tools.pop(name, None)
        try:
            self.tools[name] = self.compile(tool.get("parameters", {}))
            return {"op": "tool", "name": name, "ok": True}
        except Exception as e:  # the library cannot use the schema
            return {"op": "tool", "name": name, "ok": False, "error": "schema does not compile: %s" % str(e).splitlines()[0][:300]}

    def validate(self, m):
        mid = m.get("id")
        try:
            check = self.tools.get(m.get("tool"))
            if check is None:
                raise KeyError("unknown tool %r" % m.get("tool"))
            if isinstance(m.get("arguments"), str):
                text = m["arguments"]
                if SURROGATE.search(text):
                    r = root_issue("arguments are not valid UTF-8", "utf8")
                    return {"op": "result", "id": mid, **r}
            elif isinstance(m.get("arguments_base64"), str):
                try:
                    text = base64.b64decode(m["arguments_base64"]).decode("utf-8")
                except (ValueError, UnicodeDecodeError):
                    return {"op": "result", "id": mid, **root_issue("arguments are not valid UTF-8", "utf8")}
            else:
                raise ValueError("validate carries neither arguments nor arguments_base64")
            data, rejected = parse_arguments(text)
            r = rejected if rejected is not None else check(data)
            return {"op": "result", "id": mid, **r}
        except RecursionError:
            return {"op": "result", "id": mid, "error": "internal adapter failure: recursion too deep"}
        except Exception as e:
            return {"op": "result", "id": mid, "error": "internal adapter failure: %s: %s" % (type(e).__name__, str(e)[:300])}

    def handle(self, line):
        try:
            m = json.loads(line)
        except ValueError:
            log("ignoring a line that is not JSON")
            return None
        op = m.get("op") if isinstance(m, dict) else None
        if op == "validate":
            return self.validate(m)
        if op == "hello":
            import toolproof_fork
            return {"op": "hello", "protocol": "toolproof/1", "name": "python-jsonschema",
                    "version": version(), "fork": toolproof_fork.available()}
        if op == "tool":
            return self.register(m.get("tool"))
        log("ignoring a message with op %r" % (op,))
        return None


_version = []


def version():
    """jsonschema's version, looked up once (a forked child inherits it)."""
    if not _version:
        _version.append(importlib.metadata.version("jsonschema"))
    return _version[0]


def main():
    sys.setrecursionlimit(20000)
    if os.environ.get("TOOLPROOF_FORK_FD"):
        import toolproof_fork
        version()
        toolproof_fork.fork_point()  # returns in each child the fork server forks, as here
    serve()


def serve():
    """Answers toolproof/1 messages on stdin until it ends."""
    a = Adapter()
    fd = sys.stdin.fileno()
    out = sys.stdout.buffer
    pending = b""
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        answers = []
        for raw in lines:
            line = raw.rstrip(b"\r")
            if not line:
                continue
            ans = a.handle(line.decode("utf-8", errors="replace"))
            if ans is not None:
                answers.append(json.dumps(ans, ensure_ascii=True))
        if answers:
            out.write(("\n".join(answers) + "\n").encode())
            out.flush()
    if pending.strip():
        ans = a.handle(pending.rstrip(b"\r").decode("utf-8", errors="replace"))
        if ans is not None:
            out.write((json.dumps(ans, ensure_ascii=True) + "\n").encode())
    out.flush()


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass
