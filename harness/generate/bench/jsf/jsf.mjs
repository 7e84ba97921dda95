// jsf.mjs: json-schema-faker's side of the toolproof generator benchmark (see ../generate.sh).
//
//   node jsf.mjs [-n 20000] [--rounds 5] [--warmup 1000] [--sample 5000] SCHEMA.json...
//
// Each file is a JSON Schema (the tool is named after the file, without .json) or a tool
// definition {"name", "parameters"}. For each one it times -n calls of
// JSONSchemaFaker.generate(schema) after --warmup untimed calls, in --rounds rounds of n/rounds
// calls, and reports the median round (robust to a busy machine, like the median of go test
// -count runs). Then it validates --sample more values with ajv (draft 2020-12, the reference
// gatekeeper's default draft) and prints one JSON line: {"tool", "n", "rounds", "ns_per_value",
// "values_per_second", "sample", "invalid", "jsf_version"}. An invalid value is one
// json-schema-faker got wrong; the first one per tool is shown on stderr with ajv's errors.
// Exit status 1 on usage or read errors, not on invalid values.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JSONSchemaFaker } from 'json-schema-faker';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

// The installed package's version (JSONSchemaFaker.VERSION is stale in 0.5.9: it says 0.5.8).
const jsfVersion = JSON.parse(readFileSync(
  join(dirname(fileURLToPath(import.meta.resolve('json-schema-faker'))), '..', 'package.json'), 'utf8')).version;

function usage(msg) {
  if (msg) console.error(`jsf.mjs: ${msg}`);
  console.error('usage: node jsf.mjs [-n N] [--rounds R] [--warmup W] [--sample S] SCHEMA.json...');
  process.exit(1);
}

const opts = { n: 20000, rounds: 5, warmup: 1000, sample: 5000 };
const files = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const num = (name) => {
    const v = Number(argv[++i]);
    if (!Number.isInteger(v) || v < 0) usage(`${a} needs a non-negative integer`);
    opts[name] = v;
  };
  if (a === '-n' || a === '--n') num('n');
  else if (a === '--rounds') num('rounds');
  else if (a === '--warmup') num('warmup');
  else if (a === '--sample') num('sample');
  else if (a === '-h' || a === '--help') usage();
  else if (a.startsWith('-')) usage(`unknown flag ${a}`);
  else files.push(a);
}
if (files.length === 0) usage('no schema files');
if (opts.rounds === 0) usage('--rounds must be at least 1');
if (opts.n < opts.rounds) usage('-n must be at least --rounds');

// Options for a fair, valid comparison: optional properties drawn at random (not always
// present), no default/example values copied from the schema, errors on types or formats it
// cannot generate instead of silently producing something else.
JSONSchemaFaker.option({
  alwaysFakeOptionals: false,
  useDefaultValue: false,
  useExamplesValue: false,
  failOnInvalidTypes: true,
  failOnInvalidFormat: true,
  ignoreMissingRefs: false,
  requiredOnly: false,
});

// Formats asserted, as the reference gatekeeper does.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
addFormats(ajv);

function load(file) {
  let doc;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    console.error(`jsf.mjs: ${file}: ${e.message}`);
    process.exit(1);
  }
  if (doc && typeof doc === 'object' && !Array.isArray(doc) && typeof doc.name === 'string' && doc.parameters) {
    return { tool: doc.name, schema: doc.parameters };
  }
  return { tool: basename(file).replace(/\.json$/, ''), schema: doc };
}

// json-schema-faker 0.5.x leaves the schema object unchanged, so the same object is reused.
function generate(schema) {
  return JSONSchemaFaker.generate(schema);
}

for (const file of files) {
  const { tool, schema } = load(file);
  const validate = ajv.compile(structuredClone(schema));

  let sink = 0;
  for (let i = 0; i < opts.warmup; i++) {
    const v = generate(schema);
    if (v !== undefined) sink++;
  }
  const perRound = Math.floor(opts.n / opts.rounds);
  const rounds = [];
  for (let r = 0; r < opts.rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) {
      const v = generate(schema);
      if (v !== undefined) sink++;
    }
    rounds.push(Number(process.hrtime.bigint() - t0) / perRound);
  }
  rounds.sort((a, b) => a - b);
  const ns = rounds.length % 2 ? rounds[rounds.length >> 1]
    : (rounds[rounds.length / 2 - 1] + rounds[rounds.length / 2]) / 2;
  if (sink !== opts.warmup + perRound * opts.rounds) {
    console.error(`jsf.mjs: ${tool}: json-schema-faker returned undefined`);
  }

  let invalid = 0;
  let shown = false;
  for (let i = 0; i < opts.sample; i++) {
    const v = generate(schema);
    if (!validate(v)) {
      invalid++;
      if (!shown) {
        shown = true;
        const text = JSON.stringify(v);
        console.error(`jsf.mjs: ${tool}: invalid value ${text.length > 300 ? text.slice(0, 300) + '...' : text}: ` +
          ajv.errorsText(validate.errors));
      }
    }
  }

  console.log(JSON.stringify({
    tool,
    n: perRound * opts.rounds,
    rounds: opts.rounds,
    ns_per_value: Math.round(ns),
    values_per_second: Math.round(1e9 / ns),
    sample: opts.sample,
    invalid,
    jsf_version: jsfVersion,
  }));
}
