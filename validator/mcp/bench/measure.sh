#!/usr/bin/env bash
# Measures toolproof on real MCP servers over stdio (docs/mcp.md): the npm servers installed by
# `npm ci` in validator/mcp/servers, the Go SDK and mcp-go example servers, and the planted
# fakes. Each server runs with its own tools, --checks 20 --seed 1, strict, once as listed and
# once with --close. Reports go to $OUT (default /tmp/toolproof-mcp); a summary line per run is
# printed. Every server runs in a scratch directory; the filesystem server sees only that.
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD
out=${OUT:-/tmp/toolproof-mcp}
mkdir -p "$out/bin"
go build -o "$out/bin/toolproof" ./cmd/toolproof
go build -o "$out/bin/fake-mcp" ./validator/mcp/internal/fakeserver/cmd/toolproof-fake-mcp
(cd validator/mcp/gosdk && go build -o "$out/bin/gosdk-server" ./cmd/gosdk-server && go build -o "$out/bin/mcpgo-server" ./cmd/mcpgo-server)
npm=$root/validator/mcp/servers/node_modules/.bin
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/fs"
echo hello > "$scratch/fs/hello.txt"
export MEMORY_FILE_PATH=$scratch/memory.jsonl

run() { # name, then toolproof run arguments
	local name=$1
	shift
	for close in "" --close; do
		local f="$out/$name${close:+-close}.json"
		(cd "$scratch/fs" && "$out/bin/toolproof" run --checks 20 --seed 1 --format json $close "$@" >"$f" 2>"$f.stderr") || true
		python3 - "$f" "$name${close:+ --close}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["reports"][0]
missed, other, leaks = {}, {}, 0
for f in r["findings"]:
    if f["kind"] == "missed":
        missed[f["class"]] = missed.get(f["class"], 0) + f["count"]
    elif f["kind"] == "leak":
        leaks += f["count"]
    elif f["blocking"]:
        k = f["class"] + " " + f["kind"]
        other[k] = other.get(k, 0) + f["count"]
unclear = sum(c.get("unclear", 0) for c in r["classes"].values())
forms = [n for n in r.get("notes", []) if "by form" in n or n.startswith("MCP over") or n.startswith("SEP-1303")]
print(f'{sys.argv[2]}: {r["validator"]}: passed={r["passed"]} tools={r["tools"]} cases={r["cases"]} '
      f'missed={missed} leaks={leaks} other={other} unclear={unclear}')
for n in forms:
    print("   ", n)
seen = set()
for f in r["findings"]:
    if f["blocking"] and f["kind"] not in seen:
        seen.add(f["kind"])
        print("    e.g.", f'{f["tool"]}: {f["class"]} {f["kind"]}: {f.get("reason", "")} args {f["args"][:90]}')
PY
	done
}

run everything --validator "mcp:$npm/mcp-server-everything" --skip-tool trigger-long-running-operation --skip-tool gzip-file-as-resource
run memory --validator "mcp:$npm/mcp-server-memory"
run filesystem --validator "mcp:$npm/mcp-server-filesystem $scratch/fs"
run gosdk --validator "mcp:$out/bin/gosdk-server"
run mcpgo --validator "mcp:$out/bin/mcpgo-server"
run mcpgo-validate --validator "mcp:$out/bin/mcpgo-server -validate"
run fake-lenient --validator "mcp:$out/bin/fake-mcp lenient"
run fake-correct --validator "mcp:$out/bin/fake-mcp correct"
