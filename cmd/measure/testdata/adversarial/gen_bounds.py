from advgen import N, main, resolve_refs, tool as make_tool
MAGS = ["9007199254740992","9007199254740993","9007199254740994","1e15","1000000000000000","1e16","1e17","1e21","1e22","1e300",
        "1e-300","0.1","100","999999999999999.999","1000000000000000.001","4503599627370496.5","1e15","2e15","0"]
MULT = ["0.001","0.01","0.1","0.5","0.07","3","7","1e-5","0.0009765625","1","2"]
def mag(r):
    m = r.choice(MAGS)
    return N(("-" if r.random()<0.3 and m!="0" else "") + m)
def numschema(r, depth=0):
    s = {"type": r.choice(["number","number","integer"])}
    ks = r.sample(["minimum","maximum","exclusiveMinimum","exclusiveMaximum"], r.randint(1,2))
    vals = sorted([mag(r) for _ in ks], key=lambda x: float(x))
    # keep lower keys below upper keys
    lows = [k for k in ks if "in" in k.lower()[:10] and "Min" in k or k=="minimum"]
    for k in ks:
        s[k] = mag(r)
    lo = [k for k in s if k in ("minimum","exclusiveMinimum")]
    hi = [k for k in s if k in ("maximum","exclusiveMaximum")]
    if lo and hi:
        a, b = sorted([s[lo[0]], s[hi[0]]], key=lambda x: float(x))
        s[lo[0]], s[hi[0]] = a, b
        if float(a)==float(b): del s[lo[0]]
    if r.random() < 0.75: s["multipleOf"] = N(r.choice(MULT))
    if r.random() < 0.1:
        s = {"enum": [mag(r) for _ in range(r.randint(1,3))]}
    elif r.random() < 0.05:
        s = {"const": mag(r)}
    return s
def wrap(r, s, depth=0):
    if depth > 1 or r.random() < 0.35: return s
    c = r.choice(["anyOf","oneOf","not","allOf","ref","items","prefixItems","if"])
    if c == "anyOf": return {"anyOf":[wrap(r,s,depth+1), {"type":"string"}]}
    if c == "oneOf": return {"oneOf":[wrap(r,s,depth+1), r.choice([{"type":"string"}, {"type":"number","maximum":mag(r)}])]}
    if c == "not": return {"not": wrap(r,s,depth+1)}
    if c == "allOf": return {"allOf":[wrap(r,s,depth+1), {"type":r.choice(["number","integer"])}]}
    if c == "ref": return {"$ref": "REF"}  # filled later
    if c == "items": return {"type":"array","items":wrap(r,s,depth+1),"minItems":1}
    if c == "prefixItems": return {"type":"array","prefixItems":[wrap(r,s,depth+1)],"minItems":1, "items": False}
    if c == "if": return {"if": {"type":"number","minimum":mag(r)}, "then": wrap(r,s,depth+1), "else": numschema(r)}
def tool(r, i):
    props, defs = {}, {}
    for j in range(r.randint(1,3)):
        s = numschema(r)
        w = wrap(r, s)
        resolve_refs(w, defs, lambda: numschema(r))
        props[f"p{j}"] = w
    return make_tool(i, props, list(props)[:r.randint(1, len(props))], defs)
main(tool)
