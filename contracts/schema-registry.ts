import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { AnySchema, ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { AssopayError } from "../core/errors.js";
import { toDiagnostics } from "./error-sentences.js";
import type { ContractShapes, Diagnostic, ExpectedCounts, Route, SchemaRegistry } from "./types.js";

const SUFFIX = ".schema.json";
/** `NAME.document.schema.json` is NAME in the document's shape, where it disagrees with the seed's. */
const DOCUMENT_VARIANT = ".document";
const BASE = "https://assopay-contract.dev/schemas/";

function readSchemaFile(file: string): Record<string, unknown> {
  const text = readFileSync(file, "utf8");
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    const line = position ? text.slice(0, Number(position[1])).split("\n").length : undefined;
    throw new AssopayError("bad-contract", `schema file is not valid JSON: ${(error as Error).message}`, {
      location: { file, line },
      hint: "fix the JSON syntax at that line",
    });
  }
}

/** The `$defs` entry of the pagination schema that pins the counts, by what they should be. */
const COUNT_DEFS: Readonly<Record<ExpectedCounts, string | undefined>> = {
  real: "realCounts",
  "minus-one": "minusOne",
  absent: "absent",
  "not-applicable": undefined,
};

/** A `bad-contract` error naming a schema file. */
function schemaError(file: string, message: string, hint: string, cause?: unknown): AssopayError {
  return new AssopayError("bad-contract", message, { location: { file }, hint, cause });
}

/**
 * Loads every `*.schema.json` of a folder into one AJV instance and compiles validators on first use,
 * caching them. A schema that does not compile is a `bad-contract` error naming the file.
 */
export function createSchemaRegistry(
  ajv: Ajv2020,
  dir: string,
  shapes: ContractShapes = "seed",
): SchemaRegistry {
  const sources = new Map<string, { file: string; schema: Record<string, unknown> }>();
  for (const entry of readdirSync(dir).sort()) {
    if (!entry.endsWith(SUFFIX)) continue;
    const file = join(dir, entry);
    const schema = readSchemaFile(file);
    const name = basename(entry, SUFFIX);
    if (schema.$id !== `${BASE}${entry}`) {
      throw schemaError(
        file,
        `schema "${name}" must have $id "${BASE}${entry}"`,
        "the $id ties the file to the references of the other schemas",
      );
    }
    sources.set(name, { file, schema });
    try {
      ajv.addSchema(schema as AnySchema);
    } catch (error) {
      const message = `schema "${name}" is not a valid JSON Schema: ${(error as Error).message}`;
      throw schemaError(file, message, "check it against draft 2020-12", error);
    }
  }
  const compiled = new Map<string, ValidateFunction>();

  const compile = (key: string, build: () => AnySchema, file: string): ValidateFunction => {
    const cached = compiled.get(key);
    if (cached) return cached;
    try {
      const validate = ajv.compile(build());
      compiled.set(key, validate);
      return validate;
    } catch (error) {
      const message = `schema "${key}" does not compile: ${(error as Error).message}`;
      throw schemaError(file, message, "check its $ref targets and keywords (AJV strict mode)", error);
    }
  };

  const known = (name: string) => {
    const source = sources.get(name);
    if (!source) {
      const file = join(dir, `${name}${SUFFIX}`);
      throw schemaError(
        file,
        `no schema named "${name}"`,
        `known schemas: ${[...sources.keys()].join(", ")}`,
      );
    }
    return source;
  };

  /** The schema that judges `name` under the chosen shapes. */
  const judge = (name: string): string => {
    switch (shapes) {
      case "seed":
        return name;
      case "document":
        return sources.has(`${name}${DOCUMENT_VARIANT}`) ? `${name}${DOCUMENT_VARIANT}` : name;
    }
  };

  const validator = (name: string): ValidateFunction => {
    const source = known(name);
    return compile(name, () => ({ $ref: `${BASE}${name}${SUFFIX}` }), source.file);
  };

  // Compile every schema now: a bad one fails the load, naming its file, rather than a run halfway through.
  for (const name of sources.keys()) validator(name);

  return {
    names: () => [...sources.keys()],
    schema: (name) => known(name).schema,
    validate(name, value, root = "response") {
      const validate = validator(judge(name));
      return validate(value) ? [] : toDiagnostics(validate.errors, value, root);
    },
    validatePage(route: Route, value: unknown, counts: ExpectedCounts, root = "response"): Diagnostic[] {
      const pagination = route.pagination;
      if (!pagination) return this.validate(route.response.schema ?? "", value, root);
      const entrySchema = judge(pagination.entrySchema);
      const entry = known(entrySchema);
      const countDef = COUNT_DEFS[counts];
      const countRule = countDef && { $ref: `${BASE}pagination${SUFFIX}#/$defs/${countDef}` };
      const key = `page:${pagination.resultArray}:${entrySchema}:${counts}`;
      const validate = compile(
        key,
        () => ({
          type: "object",
          required: [pagination.resultArray, "pagination"],
          properties: {
            [pagination.resultArray]: {
              type: "array",
              items: { $ref: `${BASE}${entrySchema}${SUFFIX}` },
            },
            pagination: countRule
              ? { allOf: [{ $ref: `${BASE}pagination${SUFFIX}` }, countRule] }
              : { $ref: `${BASE}pagination${SUFFIX}` },
          },
        }),
        entry.file,
      );
      return validate(value) ? [] : toDiagnostics(validate.errors, value, root);
    },
  };
}
