// Checks the JSON report of one node: run of scripts/e2e-install against testdata/e2e/expect.json:
//
//   node check-report.mjs EXPECT.json MODULE CHECKS EXIT < report.json
//   node check-report.mjs EXPECT.json MODULE --tools     (the --tool=NAME flags of the run, one a line)
//
// MODULE's entry names the tools it must serve and the findings it may and must have (see the
// "//" key of expect.json). Every tool must be served and checked (CHECKS valid cases each, none
// unreachable, no tool skipped), the exit status must agree with the report, and every blocking
// finding must be allowed. Prints what is wrong and exits 1, or prints one summary line.
import { readFileSync } from "node:fs";

const [expectFile, module, checksArg, exitArg] = process.argv.slice(2);
const expect = JSON.parse(readFileSync(expectFile, "utf8"));
const want = expect[module];
if (!want) {
  console.error(`${module}: no entry in ${expectFile}: add one naming its tools and the findings it may have`);
  process.exit(1);
}
if (checksArg === "--tools") {
  console.log(want.tools.map((name) => `--tool=${name}`).join("\n"));
  process.exit(0);
}
const all = JSON.parse(readFileSync(0, "utf8"));
const errors = [];
if (all.reports?.length !== 1) {
  console.error(`${module}: want one report, got ${all.reports?.length}`);
  process.exit(1);
}
const r = all.reports[0];
const checks = Number(checksArg);

// Every tool served and checked (the run named each with --tool: a name no tool has is an error).
const tools = [...want.tools].sort();
const unknown = Object.keys(r.sources ?? {}).filter((name) => !tools.includes(name));
if (r.tools !== tools.length || unknown.length > 0) {
  errors.push(`checked ${r.tools} tools (findings on ${unknown.join(", ") || "no other"}), want ${tools.join(", ")}`);
}
if (r.skipped.length > 0) errors.push(`skipped: ${JSON.stringify(r.skipped)}`);
const valid = r.classes?.valid?.cases ?? 0;
if (!(r.cases > 0) || valid !== checks * tools.length || r.unreachable !== 0) {
  errors.push(`${r.cases} cases, ${valid} valid (want ${checks} per tool), ${r.unreachable} unreachable draws`);
}
if (!want.lenient) {
  for (const c of ["hallucinated_key", "missing_required", "wrong_type"]) {
    if (!(r.classes?.[c]?.cases > 0)) errors.push(`no ${c} case was sent: the passing run proves nothing`);
  }
}

// The exit status and the findings.
const blocking = r.findings.filter((f) => f.blocking);
if ((Number(exitArg) === 0) !== (blocking.length === 0) || r.passed !== (blocking.length === 0)) {
  errors.push(`exit ${exitArg} and passed ${r.passed} with ${blocking.length} blocking findings`);
}
const matches = (f, p) =>
  ["tool", "class", "kind", "variant"].every((k) => p[k] === undefined || p[k] === f[k]) &&
  (p.args === undefined || f.args.includes(p.args));
const show = (f) => `${f.tool} ${f.class}/${f.variant ?? ""} ${f.kind}: ${f.args.slice(0, 120)}`;
if (!want.lenient) {
  for (const f of blocking) {
    if (!(want.own ?? []).some((p) => matches(f, p))) errors.push(`blocking finding not allowed: ${show(f)}`);
  }
}
for (const p of want.require ?? []) {
  if (!blocking.some((f) => matches(f, p))) errors.push(`no blocking finding ${JSON.stringify(p)}`);
}

if (errors.length > 0) {
  console.error(`${module}:\n  ${errors.join("\n  ")}`);
  console.error(`findings: ${blocking.map(show).join("\n  ") || "none"}`);
  process.exit(1);
}
const kinds = [...new Set(blocking.map((f) => `${f.class} ${f.kind}`))].sort();
console.log(`${r.tools} tools, ${r.cases} cases, ${blocking.length} blocking findings${kinds.length ? ` (${kinds.join(", ")})` : ""}`);
