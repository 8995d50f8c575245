import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import schema from "./cassette.schema.json" with { type: "json" };

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** One schema finding: where (path segments into the document) and what, as a sentence. */
export interface SchemaProblem {
  path: (string | number)[];
  message: string;
}

/** Validators for the two kinds of cassette document, compiled once per loader. */
export interface CassetteValidator {
  header(value: unknown): SchemaProblem | undefined;
  interaction(value: unknown): SchemaProblem | undefined;
}

function segments(instancePath: string): (string | number)[] {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function describe(error: ErrorObject, what: string, value: unknown): SchemaProblem {
  const path = segments(error.instancePath);
  // Outside 100–599, or 101–199: only 100 may be stored as a final status.
  if (path.join(".") === "response.status" && ["minimum", "maximum", "not"].includes(error.keyword)) {
    const status = JSON.stringify((value as { response: { status: unknown } }).response.status);
    return { path, message: `response.status ${status} is not a final HTTP status (100 or 200–599)` };
  }
  const where = path.length === 0 ? `the ${what}` : path.join(".");
  if (error.keyword === "oneOf" && path[path.length - 1] === "body") {
    return {
      path,
      message: `${where} must have exactly one of json, text or base64 (and optionally encoding)`,
    };
  }
  if (
    error.keyword === "propertyNames" ||
    (error.keyword === "pattern" && error.propertyName !== undefined)
  ) {
    return {
      path,
      message: `${where} has a header name that is not an HTTP token (letters, digits, !#$%&'*+.^_\`|~-)`,
    };
  }
  if (error.keyword === "pattern" && path.includes("headers")) {
    return { path, message: `${where} holds a CR, LF or NUL, which no HTTP header value may hold` };
  }
  if (error.keyword === "additionalProperties") {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return { path, message: `${where} has an unknown field "${extra}"` };
  }
  if (error.keyword === "required") {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return { path, message: `${where} is missing the field "${missing}"` };
  }
  if (error.keyword === "const" || error.keyword === "enum") {
    const allowed = error.keyword === "const" ? [error.params.allowedValue] : error.params.allowedValues;
    return {
      path,
      message: `${where} must be ${(allowed as unknown[]).map((v) => JSON.stringify(v)).join(" or ")}`,
    };
  }
  return { path, message: `${where} ${error.message ?? "is invalid"}` };
}

function check(validate: ValidateFunction, what: string): (value: unknown) => SchemaProblem | undefined {
  return (value) => {
    if (validate(value)) return undefined;
    const errors = validate.errors ?? [];
    const first = errors.find((e) => e.keyword === "oneOf") ?? errors[0];
    return first ? describe(first, what, value) : { path: [], message: `the ${what} is invalid` };
  };
}

/**
 * Compiles `cassette.schema.json` (draft 2020-12, with formats).
 *
 * @example
 * const validator = createCassetteValidator();
 * validator.header({ format: "assopay-cassette/1" }); // { path: [], message: 'the header is missing the field "upstream"' }
 */
export function createCassetteValidator(): CassetteValidator {
  // The schema is the package's own file, not the user's: test/proxy/cassette.test.ts checks it against
  // the 2020-12 meta-schema once, so a load does not compile that meta-schema again (12 of 27 ms a call).
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(schema);
  const header = ajv.compile({ $ref: `${schema.$id}#/$defs/header` });
  const interaction = ajv.compile({ $ref: `${schema.$id}#/$defs/interaction` });
  return { header: check(header, "header"), interaction: check(interaction, "interaction") };
}

/** The cassette JSON Schema itself (for documentation and other tools). */
export const cassetteSchema: Readonly<Record<string, unknown>> = schema;
