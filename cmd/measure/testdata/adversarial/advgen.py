"""What the generators of this directory share: numbers written as given, and the tool shape."""
import json
import random
import sys


class N(str):
    """A number written as this text (json.dumps would write a float its own way)."""


def enc(v):
    if isinstance(v, N):
        return str(v)
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + enc(x) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ",".join(enc(x) for x in v) + "]"
    return json.dumps(v)


def resolve_refs(w, defs, make):
    """Points each {"$ref": "REF"} in w at a new entry of defs, made by make()."""
    def fix(x):
        if isinstance(x, dict):
            if x.get("$ref") == "REF":
                name = f"d{len(defs)}"
                defs[name] = make()
                x["$ref"] = "#/$defs/" + name
            for v in list(x.values()):
                fix(v)
        elif isinstance(x, list):
            for v in x:
                fix(v)
    fix(w)


def tool(i, props, required, defs=None):
    params = {"type": "object", "properties": props, "required": required, "additionalProperties": False}
    if defs:
        params["$defs"] = defs
    return {"name": f"t{i}", "description": "x", "parameters": params}


def main(make_tool):
    """Prints the tool file: argv is SEED COUNT."""
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    r = random.Random(seed)
    print("[\n" + ",\n".join(enc(make_tool(r, i)) for i in range(n)) + "\n]")
