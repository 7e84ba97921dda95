// Re-judges Ajv's blocking findings on these files with Ajv whose multipleOf is replaced by a
// plain floating-point check, Number.isInteger(x / m): a finding that this Ajv does not get is
// Ajv's parseInt bug (ajv-validator/ajv#2561), not a false alarm of toolproof.
//
//   go run ./cmd/measure differential -validators ajv -checks 30 -json /tmp/ajv.jsonl cmd/measure/testdata/adversarial/*.json
//   node cmd/measure/testdata/adversarial/ajv_plain_multipleof.mjs /tmp/ajv.jsonl
import fs from "fs";
import { createRequire } from "module";

const require = createRequire(new URL("../../../../validator/node/package.json", import.meta.url));
const Ajv2020 = require("ajv/dist/2020.js").default;

let bug = 0, other = 0;
for (const line of fs.readFileSync(process.argv[2], "utf8").split("\n")) {
  if (!line.trim()) continue;
  const { file, finding } = JSON.parse(line);
  const tool = JSON.parse(fs.readFileSync(file, "utf8")).find((t) => t.name === finding.tool);
  const args = JSON.parse(finding.args);
  const ajv = new Ajv2020({ strict: false });
  ajv.removeKeyword("multipleOf");
  ajv.addKeyword({ keyword: "multipleOf", type: "number", schemaType: "number", validate: (m, x) => Number.isInteger(x / m) });
  const valid = ajv.compile(tool.parameters)(args);
  if (valid === (finding.expect === "accept")) {
    bug++;
  } else {
    other++;
    console.log(`not explained by parseInt: ${file} ${finding.tool} ${finding.class} ${finding.kind} ${finding.args.slice(0, 200)}`);
  }
}
console.log(`${bug} findings are Ajv's parseInt bug, ${other} are not`);
