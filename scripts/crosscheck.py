#!/usr/bin/env python3
"""Validate values dumped by `go run ./cmd/measure -dump FILE ...` with python-jsonschema, an
implementation independent of the one toolproof uses as its oracle. Prints disagreements and a
summary; exits 1 when a value is invalid under python-jsonschema for a reason other than its
known float arithmetic in multipleOf."""
import importlib.metadata, json, sys
import jsonschema
from jsonschema import validators

def main(path, formats):
    seen, bad, float_only, unsupported = 0, 0, 0, 0
    cache = {}
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            key = json.dumps(rec["schema"], sort_keys=True)
            if key not in cache:
                schema = rec["schema"]
                cls = validators.validator_for(schema, default=jsonschema.Draft202012Validator)
                kw = {"format_checker": cls.FORMAT_CHECKER} if formats else {}
                cache[key] = cls(schema, **kw)
            v = cache[key]
            value = rec["value"]
            seen += 1
            try:
                errs = list(v.iter_errors(value))
            except Exception as exc:  # e.g. \p{...} patterns Python's re cannot compile
                unsupported += 1
                continue
            if not errs:
                continue
            # python-jsonschema divides floats in multipleOf (0.29 is not a multiple of 0.01
            # there); such values are counted apart, not as disagreements.
            if all(e.validator == "multipleOf" for e in errs):
                float_only += 1
                continue
            bad += 1
            if bad <= 20:
                print("DISAGREE", rec["id"], json.dumps(rec["value"])[:200], "|", errs[0].message[:200])
    print(f"python-jsonschema {importlib.metadata.version('jsonschema')}: {seen} values, {bad} invalid, {float_only} multipleOf-only (float arithmetic), {unsupported} not checkable (schema python cannot run)")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1], "--formats" in sys.argv))
