// The TypeBox gate of the English seed (../../../shared/seeds/typebox-tool-arguments.txt, "TypeBox
// Catches LLM Tool-Call Arguments That Are Valid JSON but Wrong Types"), written from its
// description: two entry points, parseToolArguments (raw JSON text) and validateToolArguments (a
// parsed value), over the tool's TypeBox schema compiled with typebox/compile. Strict checks, no
// conversion; a plain-object root and a structuredClone before validation; issues as JSON
// Pointers, a missing required property at /parent/name; errors that name the tool and the
// issues, never the raw arguments.

import { Compile } from "typebox/compile";

/** Tool arguments that cannot safely satisfy the tool's TypeBox schema. */
export class ToolArgumentsValidationError extends Error {
  /**
   * @param {string} toolName
   * @param {readonly string[]} issues one "POINTER: message" line each
   */
  constructor(toolName, issues) {
    const details = issues.map((issue) => `  - ${issue}`).join("\n");
    super(`Invalid arguments for tool "${toolName}":\n${details}`);
    this.name = "ToolArgumentsValidationError";
    this.toolName = toolName;
    this.issues = [...issues];
  }
}

/** RFC 6901: "~" is written "~0" and "/" is written "~1" in a reference token. */
function escapeJsonPointerSegment(segment) {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** One TypeBox error as "POINTER: message"; a missing property is reported at /parent/name. */
function formatValidationIssue(error) {
  if (error.keyword === "required") {
    const requiredProperty = error.params.requiredProperties[0];
    if (requiredProperty) {
      return `${error.instancePath}/${escapeJsonPointerSegment(requiredProperty)}: ${error.message}`;
    }
  }
  const path = error.instancePath || "/";
  return `${path}: ${error.message}`;
}

/** Only plain JSON-style objects: no null, arrays, Dates, Maps or class instances. */
function isPlainObject(value) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return false;
  }
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A deep copy of the arguments, so that the caller cannot change them after validation. */
function cloneToolArguments(toolName, value) {
  if (!isPlainObject(value)) {
    throw new ToolArgumentsValidationError(toolName, ["/: arguments must be a plain object"]);
  }
  try {
    return structuredClone(value);
  } catch {
    throw new ToolArgumentsValidationError(toolName, ["/: arguments must contain only structured-clone-compatible values"]);
  }
}

/** Validates an already parsed value; returns the checked copy or throws ToolArgumentsValidationError. */
export function validateToolArguments(tool, value) {
  const candidate = cloneToolArguments(tool.name, value);
  const validator = Compile(tool.parameters); // a bad schema is a developer error: not caught here
  if (validator.Check(candidate)) {
    return candidate;
  }
  const issues = validator.Errors(candidate).map(formatValidationIssue);
  throw new ToolArgumentsValidationError(tool.name, issues.length > 0 ? issues : ["/: arguments do not satisfy the tool schema"]);
}

/** Validates the model's raw JSON text: JSON syntax first, then validateToolArguments. */
export function parseToolArguments(tool, json) {
  let value;
  try {
    value = JSON.parse(json);
  } catch {
    throw new ToolArgumentsValidationError(tool.name, ["/: arguments must be valid JSON"]);
  }
  return validateToolArguments(tool, value);
}
