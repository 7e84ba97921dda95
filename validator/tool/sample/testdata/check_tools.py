#!/usr/bin/env python3
"""Check the embedded tool corpus (validator/tool/sample/tools/*.json) and its examples.

For every tool file:
  - it parses, has exactly the keys name/description/parameters, is pretty-printed
    with a 2-space indent, and its name matches the file name and ^[a-z][a-z0-9_]*$;
  - parameters is a valid JSON Schema (draft 2020-12, or draft-07 when its $schema
    says so), every $ref is local and resolves, every pattern (pattern keyword and
    patternProperties keys) compiles with Python re and uses nothing that Go RE2 or
    JavaScript would reject (lookaround, backreferences, inline flags, \\A \\Z \\z, \\u...).
  - when `node` is on PATH, every pattern also compiles as `new RegExp(p, "u")`.

For every line of examples.jsonl ({"tool", "args", "valid", "why", "path"}):
  - the verdict of jsonschema WITH format checking equals "valid";
  - for invalid ones, "path" is one of the instance locations jsonschema reports
    (a missing required property counts at /parent/name, an extra key at its own path);
  - every tool has at least 2 valid and 3 invalid examples.

Exit status 0 when everything holds, 1 otherwise (every problem is listed).
Usage: python3 corpus/testdata/check_tools.py [--verbose]
"""

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter

import jsonschema
from jsonschema import Draft7Validator, Draft202012Validator, FormatChecker

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS_DIR = os.path.join(os.path.dirname(HERE), "tools")
EXAMPLES = os.path.join(HERE, "examples.jsonl")
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")
DRAFT7_URIS = {"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"}
MIN_VALID, MIN_INVALID = 2, 3

problems = []


def problem(msg):
    problems.append(msg)


# --------------------------------------------------------------------------
# Format checking. The jsonschema package checks "uri" only when rfc3987 (or
# rfc3986-validator) is installed and "hostname" only when fqdn is. When they are
# missing, add strict stand-ins so the corpus examples mean the same everywhere.

_URI_RE = re.compile(
    r"^[A-Za-z][A-Za-z0-9+.-]*:"  # scheme
    r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$"
)
_LABEL_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


def _is_uri(instance):
    if not isinstance(instance, str):
        return True
    return bool(_URI_RE.match(instance))


def _is_hostname(instance):
    if not isinstance(instance, str):
        return True
    if not instance or len(instance) > 253:
        return False
    host = instance[:-1] if instance.endswith(".") else instance
    return all(_LABEL_RE.match(label) for label in host.split("."))


def format_checker_for(cls):
    base = cls.FORMAT_CHECKER
    fc = FormatChecker(formats=())
    fc.checkers = dict(base.checkers)
    added = []
    if "uri" not in fc.checkers:
        fc.checks("uri")(_is_uri)
        added.append("uri")
    if "hostname" not in fc.checkers:
        fc.checks("hostname")(_is_hostname)
        added.append("hostname")
    return fc, added


# --------------------------------------------------------------------------
# Walking schemas: visit every subschema (never const/enum/default/examples values).

SCHEMA_MAP_KEYS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_LIST_KEYS = ("allOf", "anyOf", "oneOf", "prefixItems")
SCHEMA_KEYS = ("not", "if", "then", "else", "contains", "additionalProperties", "propertyNames",
               "unevaluatedProperties", "unevaluatedItems", "additionalItems", "items")


def walk(schema, ptr=""):
    """Yield (json_pointer, subschema) for schema and all its subschemas."""
    if not isinstance(schema, dict):
        return
    yield ptr, schema
    for k in SCHEMA_MAP_KEYS:
        m = schema.get(k)
        if isinstance(m, dict):
            for name, sub in m.items():
                yield from walk(sub, f"{ptr}/{k}/{esc(name)}")
    for k in SCHEMA_LIST_KEYS:
        lst = schema.get(k)
        if isinstance(lst, list):
            for i, sub in enumerate(lst):
                yield from walk(sub, f"{ptr}/{k}/{i}")
    for k in SCHEMA_KEYS:
        sub = schema.get(k)
        if isinstance(sub, list):  # draft-07 tuple form of items
            for i, s in enumerate(sub):
                yield from walk(s, f"{ptr}/{k}/{i}")
        else:
            yield from walk(sub, f"{ptr}/{k}")
    deps = schema.get("dependencies")  # draft-07: schema or array of names
    if isinstance(deps, dict):
        for name, sub in deps.items():
            yield from walk(sub, f"{ptr}/dependencies/{esc(name)}")


def esc(token):
    return str(token).replace("~", "~0").replace("/", "~1")


def pointer(parts):
    return "".join("/" + esc(p) for p in parts)


# Constructs that RE2 (Go regexp) or JavaScript RegExp lack or read differently.
# Group and quantifier checks look only outside character classes; escape checks
# look everywhere.
_NONPORTABLE_OUTSIDE = [
    (re.compile(r"\(\?(?!:)"), "group syntax other than (?:...) (lookaround, named group, inline flag, atomic)"),
    (re.compile(r"[*+?}]\+"), "possessive quantifier"),
]
_NONPORTABLE_ESCAPES = [
    (re.compile(r"\\[1-9]"), "backreference"),
    (re.compile(r"\\k<"), "named backreference"),
    (re.compile(r"\\[AZzGQE]"), "anchor/quote escape unsupported in JavaScript or RE2"),
    (re.compile(r"\\[uUNpPXRhHKvV]"), "escape not portable between RE2, JavaScript and Python"),
]


def split_pattern(pattern):
    """Return (escapes, outside): the pattern's escape sequences joined, and the pattern
    with escapes and character classes blanked out."""
    escapes, outside = [], []
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            escapes.append(pattern[i:i + 2])
            outside.append("  " if not in_class else "")
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
                outside.append("_")
        elif c == "[":
            in_class = True
            # a ']' right after '[' or '[^' is a literal member
            j = i + 1 + (pattern[i + 1:i + 2] == "^")
            if pattern[j:j + 1] == "]":
                i = j
        else:
            outside.append(c)
        i += 1
    return " ".join(escapes), "".join(outside)


def nonportable(pattern):
    escapes, outside = split_pattern(pattern)
    found = [why for rx, why in _NONPORTABLE_OUTSIDE if rx.search(outside)]
    found += [why for rx, why in _NONPORTABLE_ESCAPES if rx.search(escapes)]
    return found


def resolve_local(root, ref):
    if not ref.startswith("#"):
        return None
    node = root
    frag = ref[1:]
    if frag == "":
        return node
    if not frag.startswith("/"):
        return None
    for tok in frag[1:].split("/"):
        tok = tok.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and tok in node:
            node = node[tok]
        else:
            return None
    return node


# --------------------------------------------------------------------------
# Tools

def load_tools():
    tools = {}
    files = sorted(f for f in os.listdir(TOOLS_DIR) if f.endswith(".json"))
    all_patterns = []
    for fn in files:
        where = f"tools/{fn}"
        raw = open(os.path.join(TOOLS_DIR, fn), encoding="utf-8").read()
        try:
            tool = json.loads(raw)
        except json.JSONDecodeError as e:
            problem(f"{where}: not JSON: {e}")
            continue
        if not isinstance(tool, dict) or set(tool) != {"name", "description", "parameters"}:
            problem(f"{where}: must be an object with exactly name, description, parameters")
            continue
        if raw != json.dumps(tool, indent=2, ensure_ascii=False) + "\n":
            problem(f"{where}: not pretty-printed with a 2-space indent (json.dumps(indent=2) + newline)")
        name = tool["name"]
        if not isinstance(name, str) or not NAME_RE.match(name):
            problem(f"{where}: name {name!r} does not match {NAME_RE.pattern}")
        if fn != f"{name}.json":
            problem(f"{where}: name {name!r} does not match the file name")
        if not isinstance(tool["description"], str) or not tool["description"].strip():
            problem(f"{where}: empty description")
        params = tool["parameters"]
        if not isinstance(params, dict) or params.get("type") != "object":
            problem(f"{where}: parameters must be a schema with type object")
            continue
        draft = params.get("$schema")
        if draft is None:
            cls = Draft202012Validator
        elif draft in DRAFT7_URIS:
            cls = Draft7Validator
        else:
            problem(f"{where}: unexpected $schema {draft!r}")
            continue
        try:
            cls.check_schema(params)
        except jsonschema.exceptions.SchemaError as e:
            problem(f"{where}: invalid {cls.__name__} schema: {e.message} at {pointer(e.path)}")
            continue
        for ptr, sub in walk(params):
            ref = sub.get("$ref")
            if ref is not None:
                prefix = "#/definitions/" if cls is Draft7Validator else "#/$defs/"
                if not isinstance(ref, str) or not ref.startswith(prefix):
                    problem(f"{where}: {ptr}/$ref {ref!r} is not a local {prefix}... reference")
                elif resolve_local(params, ref) is None:
                    problem(f"{where}: {ptr}/$ref {ref!r} does not resolve")
            pats = []
            if isinstance(sub.get("pattern"), str):
                pats.append((f"{ptr}/pattern", sub["pattern"]))
            if isinstance(sub.get("patternProperties"), dict):
                pats += [(f"{ptr}/patternProperties/{esc(k)}", k) for k in sub["patternProperties"]]
            for loc, p in pats:
                try:
                    re.compile(p)
                except re.error as e:
                    problem(f"{where}: {loc}: pattern {p!r} does not compile: {e}")
                for why in nonportable(p):
                    problem(f"{where}: {loc}: pattern {p!r} uses {why}")
                all_patterns.append((where, loc, p))
        tools[name] = (tool, cls)
    return tools, all_patterns


def check_patterns_with_node(all_patterns):
    node = shutil.which("node")
    if not node:
        return "node not found: JavaScript RegExp check skipped"
    script = (
        "const ps = JSON.parse(require('fs').readFileSync(0, 'utf8')); const bad = [];"
        "for (const p of ps) { try { new RegExp(p, 'u'); } catch (e) { bad.push([p, String(e.message)]); } }"
        "process.stdout.write(JSON.stringify(bad));"
    )
    uniq = sorted({p for _, _, p in all_patterns})
    try:
        out = subprocess.run([node, "-e", script], input=json.dumps(uniq), capture_output=True,
                             text=True, timeout=60, check=True).stdout
    except (subprocess.SubprocessError, OSError) as e:
        return f"node failed ({e}): JavaScript RegExp check skipped"
    for p, msg in json.loads(out):
        for where, loc, q in all_patterns:
            if q == p:
                problem(f"{where}: {loc}: pattern {p!r} is not a valid JavaScript RegExp (u flag): {msg}")
    return f"{len(uniq)} distinct patterns compile as JavaScript RegExp (u flag)"


# --------------------------------------------------------------------------
# Where a strict validator reports an error (JSON Pointer of the instance).

def locations(err, out):
    base = list(err.absolute_path)
    kw = err.validator
    inst = err.instance
    if kw == "required" and isinstance(inst, dict):
        for name in err.validator_value:
            if name not in inst:
                out.add(pointer(base + [name]))
    elif kw in ("dependentRequired", "dependencies") and isinstance(inst, dict):
        for prop, deps in err.validator_value.items():
            if prop in inst and isinstance(deps, list):
                out.update(pointer(base + [d]) for d in deps if d not in inst)
    elif kw == "additionalProperties" and isinstance(inst, dict):
        props = err.schema.get("properties", {})
        pats = [re.compile(p) for p in err.schema.get("patternProperties", {})]
        for k in inst:
            if k not in props and not any(p.search(k) for p in pats):
                out.add(pointer(base + [k]))
    elif kw == "unevaluatedProperties" and isinstance(inst, dict):
        for k in re.findall(r"'([^']*)'", err.message):
            if k in inst:
                out.add(pointer(base + [k]))
    elif kw == "propertyNames":
        # jsonschema reports at the object; ajv too (with the name as a parameter).
        # The corpus convention is the offending key's own path; both are accepted.
        out.add(pointer(base))
    elif kw in ("items", "additionalItems") and err.validator_value is False and isinstance(inst, list):
        n = len(err.schema.get("prefixItems", err.schema.get("items", [])) or [])
        out.add(pointer(base))
        out.update(pointer(base + [i]) for i in range(n, len(inst)))
    else:
        out.add(pointer(base))
    for sub in err.context or ():
        locations(sub, out)


def property_name_locations(err, out):
    """propertyNames errors are raised with the key as instance and the object's path."""
    if err.schema_path and "propertyNames" in err.schema_path and isinstance(err.instance, str):
        out.add(pointer(list(err.absolute_path) + [err.instance]))
    for sub in err.context or ():
        property_name_locations(sub, out)


def check_examples(tools):
    checkers = {}
    supplemented = set()
    for cls in (Draft202012Validator, Draft7Validator):
        fc, added = format_checker_for(cls)
        checkers[cls] = fc
        supplemented.update(added)
    validators = {name: cls(tool["parameters"], format_checker=checkers[cls])
                  for name, (tool, cls) in tools.items()}
    counts = Counter()
    n = 0
    with open(EXAMPLES, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = f"examples.jsonl:{lineno}"
            try:
                ex = json.loads(line)
            except json.JSONDecodeError as e:
                problem(f"{where}: not JSON: {e}")
                continue
            n += 1
            name, args, valid = ex.get("tool"), ex.get("args"), ex.get("valid")
            if name not in validators:
                problem(f"{where}: unknown tool {name!r}")
                continue
            if not isinstance(valid, bool) or not isinstance(ex.get("why"), str) or not ex["why"]:
                problem(f"{where}: needs a boolean valid and a non-empty why")
                continue
            extra = set(ex) - {"tool", "args", "valid", "why", "path"}
            if extra:
                problem(f"{where}: unexpected keys {sorted(extra)}")
            if valid and "path" in ex:
                problem(f"{where}: a valid example has no path")
            if not valid and not (isinstance(ex.get("path"), str) and (ex["path"] == "" or ex["path"].startswith("/"))):
                problem(f"{where}: an invalid example needs a JSON Pointer path")
                continue
            counts[(name, valid)] += 1
            errors = list(validators[name].iter_errors(args))
            if valid and errors:
                msgs = "; ".join(f"{pointer(e.absolute_path) or '/'}: {e.message}" for e in errors[:3])
                problem(f"{where}: {name} example ({ex['why']}) should be valid but is not: {msgs}")
            elif not valid and not errors:
                problem(f"{where}: {name} example ({ex['why']}) should be invalid at {ex['path']} but validates")
            elif not valid:
                locs = set()
                for e in errors:
                    locations(e, locs)
                    property_name_locations(e, locs)
                if ex["path"] not in locs:
                    problem(f"{where}: {name} example ({ex['why']}): path {ex['path']!r} not among reported "
                            f"locations {sorted(locs)}")
    for name in sorted(tools):
        v, i = counts[(name, True)], counts[(name, False)]
        if v < MIN_VALID or i < MIN_INVALID:
            problem(f"examples.jsonl: {name} has {v} valid / {i} invalid examples "
                    f"(need >= {MIN_VALID} / >= {MIN_INVALID})")
    return n, counts, supplemented


def main():
    verbose = "--verbose" in sys.argv[1:]
    tools, all_patterns = load_tools()
    js = check_patterns_with_node(all_patterns)
    n, counts, supplemented = check_examples(tools)
    drafts = Counter(cls.__name__ for _, cls in tools.values())
    print(f"jsonschema {_version()}")
    print(f"{len(tools)} tools ({', '.join(f'{k}: {v}' for k, v in sorted(drafts.items()))})")
    print(f"{len(all_patterns)} patterns compile with Python re and avoid RE2/JavaScript-only syntax")
    print(js)
    if supplemented:
        print(f"format checker: added stand-in checks for {', '.join(sorted(supplemented))} "
              f"(the installed jsonschema has no checker for them)")
    valid = sum(v for (_, ok), v in counts.items() if ok)
    print(f"{n} examples: {valid} valid, {n - valid} invalid")
    if verbose:
        for name in sorted(tools):
            print(f"  {name:24} {counts[(name, True)]} valid, {counts[(name, False)]} invalid")
    if problems:
        print(f"\nFAIL: {len(problems)} problem(s)")
        for p in problems:
            print("  " + p)
        return 1
    print("OK")
    return 0


def _version():
    try:
        from importlib.metadata import version
        return version("jsonschema")
    except Exception:  # pragma: no cover
        return "?"


if __name__ == "__main__":
    sys.exit(main())
