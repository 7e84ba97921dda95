#!/usr/bin/env python3
"""Checks the strings `go run ./cmd/measure patterns -dump FILE` wrote against python-jsonschema
(Draft202012Validator, pattern keyword: Python's re.search). Every string was generated as valid
and confirmed by the oracle (RE2); each one rejected is a place where the dialects disagree."""
import json, sys
import jsonschema

def main(path):
    cache, total, bad, uncompiled, by = {}, 0, 0, 0, {}
    for line in open(path):
        r = json.loads(line)
        p = r["pattern"]
        if p not in cache:
            try:
                jsonschema.Draft202012Validator.check_schema({"pattern": p}, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
                cache[p] = jsonschema.Draft202012Validator({"type": "string", "pattern": p})
            except Exception:
                cache[p] = None
        total += 1
        v = cache[p]
        if v is None:
            uncompiled += 1
            continue
        if not v.is_valid(r["value"]):
            bad += 1
            k = (r["where"], p)
            e = by.setdefault(k, {"n": 0, "example": r["value"], "source": r["source"]})
            e["n"] += 1
            if len(r["value"]) < len(e["example"]):
                e["example"] = r["value"]
    for (where, p), e in sorted(by.items(), key=lambda kv: -kv[1]["n"]):
        odd = " ".join("U+%04x" % ord(c) for c in e["example"] if ord(c) > 0x7e or ord(c) < 0x20)
        print("DISAGREE python %d %s %s (%s) e.g. %s %s" % (e["n"], where, p, e["source"], json.dumps(e["example"]), odd))
    print("python-jsonschema: %d strings, %d rejected (%d patterns), %d under patterns python cannot compile" % (total, bad, len(by), uncompiled))

if __name__ == "__main__":
    main(sys.argv[1])
