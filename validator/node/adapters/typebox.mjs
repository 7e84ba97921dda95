// toolproof/1 adapter: TypeBox 1.x. Compile() takes the tool's JSON Schema as it is (TypeBox 1.x
// types are JSON Schema objects, and its schema engine walks standard keywords). Check(), then
// Errors() for the issues. No Value.Convert/Clean/Default: the value passed on is the parsed input
// unchanged, so results carry no value.

import { Compile } from "typebox/compile";
import { issue, escapeToken, valueAt } from "./gate.mjs";
import { libraryVersion, serve } from "./protocol.mjs";

// Errors that TypeBox reports once on the parent object, listing property names in params:
// reported here once per property at /parent/name, with a message that does not repeat the name
// (names from the instance are values too).
const perProperty = {
  required: ["requiredProperties", "must have this required property"],
  additionalProperties: ["additionalProperties", "must NOT be an additional property"],
  unevaluatedProperties: ["unevaluatedProperties", "must NOT be an unevaluated property"],
  propertyNames: ["propertyNames", "property name is invalid"],
};

// dependentRequired (and draft-07 array dependencies) list all the dependencies in params; the
// missing ones are reported like missing required properties.
const conditional = { dependentRequired: true, dependencies: true };

function issues(data, errors) {
  const out = [];
  const add = (e, names, message) => {
    for (const n of names) out.push({ path: `${e.instancePath}/${escapeToken(n)}`, message, keyword: e.keyword });
  };
  for (const e of errors) {
    const split = perProperty[e.keyword];
    const names = split && e.params?.[split[0]];
    const dependencies = conditional[e.keyword] && e.params?.dependencies;
    if (Array.isArray(names)) {
      add(e, names, split[1]);
    } else if (Array.isArray(dependencies)) {
      const parent = valueAt(data, e.instancePath);
      add(e, dependencies.filter((n) => !Object.hasOwn(parent ?? {}, n)), "must have this property when a property it depends on is present");
    } else {
      out.push(issue(data, e.instancePath, e.message, e.keyword));
    }
  }
  return out;
}

serve({
  name: "typebox",
  version: libraryVersion("typebox"),
  compile(parameters) {
    const validator = Compile(parameters);
    // Check never changes the data, so the value passed on is the input: no "value" to send.
    return (data) => (validator.Check(data) ? { valid: true } : { valid: false, issues: issues(data, validator.Errors(data)) });
  },
});
