// table.mjs: the side-by-side table of harness/generate/bench/generate.sh.
//
//   node table.mjs GO_BENCH_OUTPUT JSF_JSONL TOOL...
//
// GO_BENCH_OUTPUT is the text of `go test -bench BenchmarkGenerate -benchmem` (any -count: the
// median of each benchmark's runs is used); JSF_JSONL the lines jsf.mjs printed. Prints one
// table, a row per tool, then whether the targets are met. Exit status 1 when a number
// is missing.
import { readFileSync } from 'node:fs';

const [goFile, jsfFile, ...tools] = process.argv.slice(2);
if (!goFile || !jsfFile || tools.length === 0) {
  console.error('usage: node table.mjs GO_BENCH_OUTPUT JSF_JSONL TOOL...');
  process.exit(1);
}

// name (without the -GOMAXPROCS suffix) -> unit -> [values]
const goRuns = new Map();
for (const line of readFileSync(goFile, 'utf8').split('\n')) {
  const m = /^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.*)$/.exec(line.trim());
  if (!m) continue;
  const fields = m[3].trim().split(/\s+/);
  const units = goRuns.get(m[1]) ?? new Map();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const v = Number(fields[i]);
    if (!Number.isFinite(v)) continue;
    const list = units.get(fields[i + 1]) ?? [];
    list.push(v);
    units.set(fields[i + 1], list);
  }
  goRuns.set(m[1], units);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

let missing = false;
function goMetric(name, unit) {
  const xs = goRuns.get(name)?.get(unit);
  if (!xs || xs.length === 0) {
    console.error(`table.mjs: no ${unit} for ${name} in ${goFile}`);
    missing = true;
    return NaN;
  }
  return median(xs);
}

const jsf = new Map();
for (const line of readFileSync(jsfFile, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const r = JSON.parse(line);
  jsf.set(r.tool, r);
}

const rows = [];
const ratioMet = [];
const ratioMissed = [];
const speedupMet = [];
const speedupMissed = [];
for (const tool of tools) {
  const tp = goMetric(`BenchmarkGenerate/${tool}/toolproof`, 'ns/op');
  const hw = goMetric(`BenchmarkGenerate/${tool}/handwritten`, 'ns/op');
  const tpAllocs = goMetric(`BenchmarkGenerate/${tool}/toolproof`, 'allocs/op');
  const hwAllocs = goMetric(`BenchmarkGenerate/${tool}/handwritten`, 'allocs/op');
  const oracle = goRuns.has(`BenchmarkGenerateWithOracle/${tool}/oracle_only`)
    ? goMetric(`BenchmarkGenerateWithOracle/${tool}/oracle_only`, 'ns/op') : NaN;
  const j = jsf.get(tool);
  if (!j) {
    console.error(`table.mjs: no json-schema-faker result for ${tool} in ${jsfFile}`);
    missing = true;
  }
  const jsfNs = j ? j.ns_per_value : NaN;
  const ratio = tp / hw;
  const speedup = jsfNs / tp;
  (ratio <= 1.3 ? ratioMet : ratioMissed).push(`${tool} ${ratio.toFixed(2)}x`);
  (speedup >= 3 ? speedupMet : speedupMissed).push(`${tool} ${speedup.toFixed(1)}x`);
  rows.push([
    tool,
    fmtNs(tp),
    fmtNs(hw),
    `${ratio.toFixed(2)}x`,
    fmtNs(jsfNs),
    `${speedup.toFixed(1)}x`,
    `${tpAllocs} / ${hwAllocs}`,
    Number.isNaN(oracle) ? '-' : `${fmtNs(oracle)} (${Math.round((100 * oracle) / tp)}%)`,
    j ? `${j.invalid}/${j.sample}` : '-',
  ]);
}

function fmtNs(x) {
  if (!Number.isFinite(x)) return '?';
  return Math.round(x).toLocaleString('en-US');
}

const head = ['tool', 'toolproof ns/op', 'hand-written ns/op', 'ratio', 'json-schema-faker ns/value',
  'toolproof speedup over jsf', 'allocs/op tp / hw', 'oracle ns/op (share of tp)', 'jsf invalid'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) => '| ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ') + ' |';
console.log(line(head));
console.log('|' + widths.map((w, i) => (i === 0 ? ':' : '-') + '-'.repeat(w) + (i === 0 ? '-' : ':')).join('|') + '|');
for (const r of rows) console.log(line(r));
console.log('');
const verdict = (met, missed) => (missed.length === 0 ? 'MET for every tool' : 'NOT MET') +
  (met.length ? `; met: ${met.join(', ')}` : '') + (missed.length ? `; missed: ${missed.join(', ')}` : '');
console.log(`target toolproof <= 1.3x hand-written: ${verdict(ratioMet, ratioMissed)}`);
console.log(`target toolproof >= 3x faster than json-schema-faker: ${verdict(speedupMet, speedupMissed)}`);
const runs = goRuns.get(`BenchmarkGenerate/${tools[0]}/toolproof`)?.get('ns/op')?.length ?? 0;
console.log(`(Go: median of ${runs} run(s) per benchmark; json-schema-faker ${[...jsf.values()][0]?.jsf_version ?? '?'}, ` +
  `${[...jsf.values()][0]?.n ?? '?'} values per tool; oracle = gk.Valid alone, which toolproof's Draw calls once per value)`);
if (missing) process.exit(1);
