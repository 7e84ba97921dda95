from advgen import N, main, resolve_refs, tool as make_tool
LITS = ["9007199254740992","9007199254740993","9007199254740993.0","9.007199254740993e15","9007199254740992.0","9007199254740994",
 "9007199254740991","1e16","10000000000000001","10000000000000000","1.0000000000000001e16","0.1","0.30000000000000004","0.3",
 "0.1000000000000000055511151231257827","0.30000000000000001","-0.0","0","-0","0.0","1","1.0","1e0","10E-1","100","1E2","100.00",
 "1e+2","1e300","1e308","1.7976931348623157e308","5e-324","2.5e-324","4503599627370496.5","4503599627370497","18446744073709551616",
 "18446744073709551615","9223372036854775807","9223372036854775808","-9223372036854775809","2","0.5","1.5","7","123456789012345678"]
RARE = ["1e400","1e-400","-1e400"]
def lit(r):
    if r.random() < 0.03: return N(r.choice(RARE))
    m = r.choice(LITS)
    if r.random() < 0.25 and not m.startswith("-") and m not in ("0","0.0"): m = "-" + m
    return N(m)
def near(r, base):
    # literals close to base
    f = float(base)
    opts = [base, N(repr(f)), N(str(int(f))) if abs(f) < 1e300 and f == int(f) else base, lit(r)]
    return r.choice(opts)
def num(r):
    k = r.random()
    if k < 0.2: return {"enum": list({str(x): x for x in [lit(r) for _ in range(r.randint(1,4))]}.values())}
    if k < 0.3: return {"const": lit(r)}
    if k < 0.4: return {"type": "integer", "enum": [lit(r) for _ in range(r.randint(1,3))]}
    s = {"type": r.choice(["number","integer","integer"])}
    lo, hi = sorted([lit(r), lit(r)], key=lambda x: float(x))
    ks = r.sample(["minimum","maximum","exclusiveMinimum","exclusiveMaximum"], r.randint(1,2))
    for key in ks:
        s[key] = lo if "in" in key.lower() and "min" in key.lower() else hi
    if "exclusiveMinimum" in s and "exclusiveMaximum" in s and float(s["exclusiveMinimum"]) >= float(s["exclusiveMaximum"]): del s["exclusiveMaximum"]
    if r.random() < 0.15: s["multipleOf"] = N(r.choice(["1","1.0","1e0","0.5","2","0.1","3"]))
    return s
def arr(r, d):
    k = r.random()
    if k < 0.4:
        return {"type":"array","items": num(r) if r.random()<0.7 else {"type":"number"}, "uniqueItems": True, "minItems": r.randint(1,3), "maxItems": 5}
    if k < 0.55:
        vals = [lit(r) for _ in range(r.randint(2,4))]
        return {"type":"array","items":{"enum": vals}, "uniqueItems": True, "minItems": 2}
    if k < 0.7:
        return {"type":"array","prefixItems":[sub(r,d+1), sub(r,d+1)], "items": False, "minItems": 2, "uniqueItems": r.random()<0.5}
    if k < 0.85:
        s = {"type":"array","items":{"type":"number"},"contains": num(r), "maxItems": 4}
        if r.random()<0.6: s["minContains"] = r.randint(1,2)
        if r.random()<0.3: s["maxContains"] = 2
        return s
    return {"type":"array","items":{"type":"array","items":{"type":"number"},"maxItems":2},"uniqueItems":True,"minItems":2,"maxItems":3}
def sub(r, d=0):
    if d > 2: return num(r)
    k = r.random()
    if k < 0.3: return num(r)
    if k < 0.45: return arr(r, d)
    c = r.choice(["anyOf","oneOf","not","if","allOf","ref","ref","obj"])
    if c == "anyOf": return {"anyOf":[sub(r,d+1), r.choice([{"type":"string"}, num(r)])]}
    if c == "oneOf": return {"oneOf":[sub(r,d+1), r.choice([{"type":"string"}, num(r)])]}
    if c == "not": return {"not": sub(r,d+1)}
    if c == "allOf": return {"allOf":[sub(r,d+1), {"type": r.choice(["number","integer"])}]}
    if c == "ref": return {"$ref": "REF"}
    if c == "if": return {"if": num(r), "then": sub(r,d+1), "else": sub(r,d+1)}
    if c == "obj":
        o = {"type":"object","properties":{"a": sub(r,d+1), "b": {"type":"number"}}, "required":["a"], "additionalProperties": False}
        if r.random()<0.5: o["dependentSchemas"] = {"b": {"properties": {"a": num(r)}}}
        if r.random()<0.4:
            o["patternProperties"] = {"^x": num(r)}; o.pop("additionalProperties")
            o["additionalProperties"] = False
        return o
def tool(r, i):
    props, defs = {}, {}
    for j in range(r.randint(1,3)):
        w = sub(r)
        resolve_refs(w, defs, lambda: num(r) if r.random() < 0.6 else arr(r, 2))
        props[f"p{j}"] = w
    return make_tool(i, props, list(props)[:r.randint(1, len(props))], defs)
main(tool)
