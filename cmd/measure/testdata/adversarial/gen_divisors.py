from advgen import N, main, resolve_refs, tool as make_tool
I = ["3","7","2","5","11","1","6"]
F = ["0.1","0.3","0.7","1.5","0.01","2.0","7.0","0.5","3.0"]
MAG = ["1e17","1e20","3e20","7e22","1e22","1e300","9007199254740993","1e16","2.1e22","1.4e23","6e300"]
def numv(r):
    s = {"type": r.choice(["number","number","integer"])}
    m = float(r.choice(MAG))
    sign = -1 if r.random() < 0.3 else 1
    lo, hi = sorted([sign*m*r.choice([0.5,0.9,1,1]), sign*m*r.choice([1,1.1,2,10])])
    s["minimum"] = N(repr(lo)); s["maximum"] = N(repr(hi))
    i, f = N(r.choice(I)), N(r.choice(F))
    c = r.randint(0, 5)
    if c == 0: s["anyOf"] = [{"multipleOf": i}, {"not": {"multipleOf": f}}]
    elif c == 1: s["anyOf"] = [{"multipleOf": f}, {"not": {"multipleOf": i}}]
    elif c == 2: s["oneOf"] = [{"multipleOf": i}, {"multipleOf": f}]
    elif c == 3: s["if"] = {"multipleOf": f}; s["then"] = {"multipleOf": i}
    elif c == 4: s["not"] = {"allOf": [{"multipleOf": i}, {"not": {"multipleOf": f}}]}
    else: s["anyOf"] = [{"multipleOf": i}, {"multipleOf": f}]
    return s
def tool(r, k):
    props = {f"p{j}": numv(r) for j in range(r.randint(1, 2))}
    return make_tool(k, props, list(props))
main(tool)
