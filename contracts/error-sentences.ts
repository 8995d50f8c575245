import type { ErrorObject } from "ajv";
import type { Diagnostic } from "./types.js";

/** `/data/3/amount/total` → `response.data[3].amount.total`. */
export function readablePath(root: string, instancePath: string): string {
  if (instancePath === "") return root;
  return instancePath
    .split("/")
    .slice(1)
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((path, segment) => {
      if (/^\d+$/.test(segment)) return `${path}[${segment}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(segment)) return `${path}.${segment}`;
      return `${path}[${JSON.stringify(segment)}]`;
    }, root);
}

function valueAt(value: unknown, instancePath: string): unknown {
  let current = value;
  for (const segment of instancePath.split("/").slice(1)) {
    const key = segment.replace(/~1/g, "/").replace(/~0/g, "~");
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
  switch (error.keyword) {
    case "required":
      return { suffix: `.${String(params.missingProperty)}`, message: "is required but missing" };
    case "additionalProperties":
      return { suffix: `.${String(params.additionalProperty)}`, message: "is not allowed here" };
    case "type":
      return { suffix: "", message: `must be ${String(params.type)}, got ${describeValue(actual)}` };
    case "const":
      return {
        suffix: "",
        message: `must be ${JSON.stringify(params.allowedValue)}, got ${describeValue(actual)}`,
      };
    case "enum":
      return {
        suffix: "",
        message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, got ${describeValue(actual)}`,
      };
    case "pattern":
    case "format": {
      const description = (error.parentSchema as { description?: unknown } | undefined)?.description;
      const expected =
        typeof description === "string" ? `must be ${description}` : (error.message ?? "is malformed");
      return { suffix: "", message: `${expected}, got ${describeValue(actual)}` };
    }
    case "false schema":
      return { suffix: "", message: `must be absent, got ${describeValue(actual)}` };
    case "not":
      return { suffix: "", message: `must not have this shape, got ${describeValue(actual)}` };
    default:
      return { suffix: "", message: `${error.message ?? "is invalid"}, got ${describeValue(actual)}` };
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
