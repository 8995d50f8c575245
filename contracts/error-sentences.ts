import type { ErrorObject } from "ajv";
import type { Diagnostic } from "./types.js";

/** The keys of a JSON pointer (`/data/3/a~1b` → `data`, `3`, `a/b`). */
const pointerKeys = (pointer: string) =>
  pointer
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));

/** `/data/3/amount/total` → `response.data[3].amount.total`. */
export function readablePath(root: string, instancePath: string): string {
  return pointerKeys(instancePath).reduce((path, segment) => {
    if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
    if (/^[A-Za-z_$][\w$]*$/.test(segment)) return `${path}.${segment}`;
    return `${path}[${JSON.stringify(segment)}]`;
  }, root);
}

function valueAt(value: unknown, instancePath: string): unknown {
  let current = value;
  for (const key of pointerKeys(instancePath)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `string "1200"`, `integer 3`, `null`, `object`, `array of 2`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `array of ${value.length}`;
  switch (typeof value) {
    case "string":
      return `string ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value)}`;
    case "number":
      return `${Number.isInteger(value) ? "integer" : "number"} ${value}`;
    case "boolean":
      return `boolean ${value}`;
    case "undefined":
      return "nothing";
    default:
      return typeof value;
  }
}

function sentence(error: ErrorObject, actual: unknown): { suffix: string; message: string } {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required")
    return { suffix: `.${String(params.missingProperty)}`, message: "is required but missing" };
  if (error.keyword === "additionalProperties")
    return { suffix: `.${String(params.additionalProperty)}`, message: "is not allowed here" };
  return { suffix: "", message: `${expectation(error, params)}, got ${describeValue(actual)}` };
}

/** What a value failing `error` should have been. */
function expectation(error: ErrorObject, params: Record<string, unknown>): string {
  switch (error.keyword) {
    case "type":
      return `must be ${String(params.type)}`;
    case "const":
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case "enum":
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "pattern":
    case "format": {
      const description = (error.parentSchema as { description?: unknown } | undefined)?.description;
      return typeof description === "string" ? `must be ${description}` : (error.message ?? "is malformed");
    }
    case "false schema":
      return "must be absent";
    case "not":
      return "must not have this shape";
    default:
      return error.message ?? "is invalid";
  }
}

/**
 * Turns AJV's errors into one readable sentence each, dropping the noise of `anyOf`/`oneOf` branches
 * when a more precise error exists.
 */
export function toDiagnostics(
  errors: readonly ErrorObject[] | null | undefined,
  value: unknown,
  root: string,
): Diagnostic[] {
  if (!errors || errors.length === 0) return [];
  const precise = errors.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf" && e.keyword !== "if");
  const chosen = precise.length > 0 ? precise : errors;
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const error of chosen) {
    const { suffix, message } = sentence(error, valueAt(value, error.instancePath));
    const path = `${readablePath(root, error.instancePath)}${suffix}`;
    const key = `${path} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push({ path, message: `${path} ${message}`, keyword: error.keyword });
  }
  return diagnostics;
}
