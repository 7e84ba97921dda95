#!/usr/bin/env bash
# Throughput of toolproof against the same MCP server over stdio and over Streamable HTTP
# (docs/mcp.md): the Go SDK example server (gosdk-server: stdio, HTTP with sessions and event
# streams, HTTP stateless in 2026-07-28) and the TypeScript alarm servers of
# validator/mcp/servers/alarm (SDK 1.x: stdio, HTTP with sessions and SSE; SDK 2.x: stdio and
# HTTP, both 2026-07-28). Each run: toolproof run --checks ${CHECKS:-50} --seed 1 --format json,
# wall time measured around it; "calls" is every tools/call answered (shrinking included), from
# the report's note. Needs npm ci in validator/mcp/servers. HTTP servers listen on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD
out=${OUT:-/tmp/toolproof-mcp-throughput}
checks=${CHECKS:-50}
mkdir -p "$out/bin"
go build -o "$out/bin/toolproof" ./cmd/toolproof
(cd validator/mcp/gosdk && go build -o "$out/bin/gosdk-server" ./cmd/gosdk-server)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

serve() { # command...: starts an HTTP server that prints its URL first; sets $url
	local f
	f=$(mktemp)
	"$@" >"$f" 2>/dev/null &
	pids+=($!)
	for _ in $(seq 100); do
		url=$(head -1 "$f")
		[ -n "$url" ] && return
		sleep 0.1
	done
	echo "no URL from $*" >&2
	exit 1
}

measure() { # label, validator spec
	local label=$1 spec=$2 f="$out/$(echo "$1" | tr ' /' '__').json" start end
	start=$(date +%s.%N)
	"$out/bin/toolproof" run --validator "$spec" --checks "$checks" --seed 1 --format json >"$f" 2>/dev/null || true
	end=$(date +%s.%N)
	python3 - "$f" "$label" "$start" "$end" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))["reports"][0]
secs = float(sys.argv[4]) - float(sys.argv[3])
calls = 0
proto = ""
for n in r.get("notes", []):
    if n.startswith("tools/call answers by form"):
        calls = sum(int(x) for x in re.findall(r" (\d+)(?:,|$)", n))
    m = re.match(r"MCP over (.*), protocol (\S+)", n)
    if m:
        proto = f"{m.group(1)}, {m.group(2)}"
print(f"{sys.argv[2]:<34} {proto:<30} cases {r['cases']:>5}  calls {calls:>5}  {secs:6.2f} s  {calls/secs:7.0f} calls/s  findings {len(r['findings'])}")
PY
}

measure "Go SDK stdio" "mcp:$out/bin/gosdk-server"
serve "$out/bin/gosdk-server" -http 127.0.0.1:0
measure "Go SDK HTTP sessions+SSE" "mcp:$url"
serve "$out/bin/gosdk-server" -http 127.0.0.1:0 -stateless
measure "Go SDK HTTP stateless" "mcp:$url"
alarm=$root/validator/mcp/servers/alarm
measure "TS SDK 1.x stdio" "mcp:node $alarm/v1.mjs"
serve node "$alarm/v1.mjs" --http 0
measure "TS SDK 1.x HTTP sessions+SSE" "mcp:$url"
measure "TS SDK 2.x stdio" "mcp:node $alarm/v2.mjs"
serve node "$alarm/v2.mjs" --http 0
measure "TS SDK 2.x HTTP" "mcp:$url"
