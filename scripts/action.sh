#!/usr/bin/env bash
# The steps of the toolproof GitHub Action (action.yml), one subcommand each, so that they can be
# run and tested outside GitHub (scripts/check-action.py runs them against a local build).
#
#   toolproof.sh install   install toolproof at TP_VERSION (empty: build it from TP_ACTION_PATH)
#   toolproof.sh run       run it with the inputs; one shard when TP_SHARDS > 1
#   toolproof.sh merge     merge the shards' JSON reports found under TP_SHARDS_DIR
#   toolproof.sh finish    the Markdown report to the job summary; fail on findings
#
# Inputs come as TP_* variables (action.yml maps every input to one). Files go to TP_OUT:
# report.json, report.md, report.html, report.sarif, badge.json, report.txt. Outputs go to
# GITHUB_OUTPUT, the step summary to GITHUB_STEP_SUMMARY.
set -euo pipefail

out="${TP_OUT:-${RUNNER_TEMP:-/tmp}/toolproof}"
bin="${TP_BIN:-$out/bin}"
mkdir -p "$out"

output() { echo "$1=$2" >>"${GITHUB_OUTPUT:-/dev/null}"; }
fail() { echo "::error title=toolproof::$*" >&2; exit 2; }

# lines splits a multi-line input into the array named by $1, one element a non-empty line.
lines() {
	local -n into="$1"
	into=()
	local line
	while IFS= read -r line; do
		line="${line#"${line%%[![:space:]]*}"}"
		line="${line%"${line##*[![:space:]]}"}"
		[ -n "$line" ] && into+=("$line")
	done <<<"$2"
	return 0
}

install() {
	mkdir -p "$bin"
	if [ -n "${TP_VERSION:-}" ]; then
		GOBIN="$bin" go install "github.com/toolproof/toolproof/cmd/toolproof@${TP_VERSION}"
	else
		[ -n "${TP_ACTION_PATH:-}" ] || fail "no version given and no action path to build toolproof from"
		(cd "$TP_ACTION_PATH" && go build -o "$bin/toolproof" ./cmd/toolproof)
	fi
	echo "$bin" >>"${GITHUB_PATH:-/dev/null}"
	output toolproof "$bin/toolproof"
	"$bin/toolproof" validators >/dev/null
}

# reports are the --report flags of a whole run (not of a shard).
reports=(--report "json=$out/report.json" --report "markdown=$out/report.md" --report "html=$out/report.html"
	--report "sarif=$out/report.sarif" --report "badge=$out/badge.json")

# record runs toolproof with the given arguments, keeps its text report, and says how it ended.
record() {
	local code=0
	"$bin/toolproof" "$@" >"$out/report.txt" || code=$?
	cat "$out/report.txt"
	output exit-code "$code"
	case "$code" in
	0 | 1) ;;
	2) fail "toolproof exited with status 2 (bad usage or input): see the log above" ;;
	3)
		echo "::error title=toolproof::toolproof was interrupted (exit 3: a signal, --max-time, or a validator that stopped answering); the report covers what was checked: see the log above" >&2
		exit 3
		;;
	*) fail "toolproof exited with status $code (it did not finish: killed or crashed): see the log above" ;;
	esac
	if [ "$code" -eq 0 ]; then output passed true; else output passed false; fi
	echo "$code" >"$out/exit-code"
}

run() {
	local args=(run --format text --checks "${TP_CHECKS:-100}" --profile "${TP_PROFILE:-strict}")
	local seed="${TP_SEED:-1}"
	# 'fresh': new cases each workflow run, the run's id (the same in every shard of the run).
	if [ "$seed" = fresh ]; then seed="${TP_RUN_ID:-}"; fi
	[ -n "$seed" ] || fail "seed fresh needs the workflow run's id (TP_RUN_ID)"
	args+=(--seed "$seed")
	local t v e
	lines t "${TP_TOOLS:-}"
	for p in ${t[@]+"${t[@]}"}; do args+=(--tools "$p"); done
	lines v "${TP_VALIDATORS:-}"
	for s in ${v[@]+"${v[@]}"}; do args+=(--validator "$s"); done
	[ "${TP_CLOSE:-false}" = true ] && args+=(--close)
	[ -n "${TP_BASELINE:-}" ] && args+=(--baseline "$TP_BASELINE")
	local shards="${TP_SHARDS:-1}"
	if [ "$shards" -gt 1 ]; then
		[ -n "${TP_SHARD:-}" ] || fail "shards is $shards: give shard (the matrix index, 0 to $((shards - 1)))"
		args+=(--shard "$TP_SHARD/$shards" --report "json=$out/report.json")
	else
		args+=("${reports[@]}")
	fi
	lines e "${TP_ARGS:-}"
	args+=(${e[@]+"${e[@]}"})
	record "${args[@]}"
	output report "$out/report.json"
}

merge() {
	local dir="${TP_SHARDS_DIR:?the directory of the downloaded shard reports}"
	local files=()
	while IFS= read -r f; do files+=("$f"); done < <(find "$dir" -name report.json | sort)
	[ "${#files[@]}" -gt 0 ] || fail "no shard reports (report.json) under $dir"
	if [ -n "${TP_SHARDS:-}" ] && [ "${#files[@]}" -ne "$TP_SHARDS" ]; then
		echo "toolproof: $dir has ${#files[@]} shard reports, shards says $TP_SHARDS; merge names the missing ones" >&2
	fi
	record merge --format text "${reports[@]}" "${files[@]}"
	output report "$out/report.json"
}

finish() {
	[ -f "$out/exit-code" ] || fail "no run recorded in $out"
	local code
	code="$(cat "$out/exit-code")"
	if [ -f "$out/report.md" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
		cat "$out/report.md" >>"$GITHUB_STEP_SUMMARY"
	fi
	if [ "$code" -ne 0 ] && [ "${TP_FAIL_ON_FINDINGS:-true}" = true ]; then
		echo "::error title=toolproof::findings: see the report (job summary, code scanning, the HTML artifact)" >&2
		exit "$code"
	fi
}

case "${1:-}" in
install | run | merge | finish) "$1" ;;
*) fail "usage: toolproof.sh install|run|merge|finish" ;;
esac
