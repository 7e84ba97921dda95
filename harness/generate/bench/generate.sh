#!/usr/bin/env bash
# harness/generate/bench/generate.sh: the schema-driven generator against a hand-written rapid generator (the
# floor) and json-schema-faker, side by side, for the tools in validator/tool/sample/tools.
#
#   harness/generate/bench/generate.sh               # from the repository root (or anywhere)
#
# Needs Go and Node 20 with npm. Steps: `npm ci` in bench/jsf when its node_modules is missing;
# the Go benchmarks (harness/generate/bench_test.go); json-schema-faker on the same tools' parameters
# (harness/generate/bench/jsf/jsf.mjs); then one table. Any failing step stops the script with a non-zero exit.
#
# Environment:
#   TOOLS        tools to compare, a subset of the default read execute_code edit_files
#                (the hand-written generators in harness/generate/bench_test.go are for these)
#   BENCH_COUNT  go test -count; the table uses the median of the runs (default 1)
#   BENCH_TIME   go test -benchtime (default: go's 1s)
#   JSF_N        json-schema-faker values timed per tool (default 20000; warm-up 1000)
#   JSF_SAMPLE   json-schema-faker values validated with ajv per tool (default 5000)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"

TOOLS="${TOOLS:-read execute_code edit_files}"
BENCH_COUNT="${BENCH_COUNT:-1}"
JSF_N="${JSF_N:-20000}"
JSF_SAMPLE="${JSF_SAMPLE:-5000}"

for cmd in go node npm; do
	if ! command -v "$cmd" >/dev/null 2>&1; then
		echo "generate.sh: $cmd is not installed" >&2
		exit 1
	fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

step() { printf '\n== %s\n' "$*" >&2; }

if [ ! -d bench/jsf/node_modules ]; then
	step "npm ci (harness/generate/bench/jsf)"
	(cd harness/generate/bench/jsf && npm ci --no-audit --no-fund >&2)
fi

# The Go benchmarks, anchored to the three tools: ^BenchmarkGenerate(WithOracle)?$/^(tool|...)$
tool_re="$(printf '%s|' $TOOLS)"
tool_re="^(${tool_re%|})\$"
bench_args=(-run '^$' -bench "^BenchmarkGenerate(WithOracle)?\$/${tool_re}" -benchmem -count "$BENCH_COUNT")
if [ -n "${BENCH_TIME:-}" ]; then
	bench_args+=(-benchtime "$BENCH_TIME")
fi
step "go test ${bench_args[*]} ./harness/generate/"
go test "${bench_args[@]}" ./harness/generate/ | tee "$work/go.txt" >&2

step "extract the tools' parameters schemas"
schemas=()
for t in $TOOLS; do
	f="validator/tool/sample/tools/$t.json"
	if [ ! -f "$f" ]; then
		echo "generate.sh: no tool file $f" >&2
		exit 1
	fi
	node -e '
		const fs = require("fs");
		const [src, dst] = process.argv.slice(1);
		const doc = JSON.parse(fs.readFileSync(src, "utf8"));
		const def = doc.function ?? doc;
		const schema = def.parameters ?? def.input_schema ?? def.inputSchema;
		if (schema === undefined) { console.error(`${src}: no parameters`); process.exit(1); }
		fs.writeFileSync(dst, JSON.stringify(schema));
	' "$f" "$work/$t.json"
	schemas+=("$work/$t.json")
done

step "json-schema-faker: node harness/generate/bench/jsf/jsf.mjs -n $JSF_N --sample $JSF_SAMPLE"
node harness/generate/bench/jsf/jsf.mjs -n "$JSF_N" --warmup 1000 --sample "$JSF_SAMPLE" "${schemas[@]}" | tee "$work/jsf.jsonl" >&2

step "toolproof vs hand-written vs json-schema-faker"
# shellcheck disable=SC2086 # TOOLS is a list of names
node harness/generate/bench/jsf/table.mjs "$work/go.txt" "$work/jsf.jsonl" $TOOLS
