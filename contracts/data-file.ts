import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AnySchema } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { AssopayError } from "../core/errors.js";
import { expectOwnFormat, readYamlFile } from "../core/yaml-file.js";
import { toDiagnostics } from "./error-sentences.js";

/**
 * Reads one of the contract's YAML data files and validates it against its meta-schema
 * (`contracts/meta/<name>.meta.json`). The first problem is thrown as a `bad-contract` error with the
 * file and line of the offending value.
 */
export function readDataFile(
  ajv: Ajv2020,
  metaDir: string,
  metaName: string,
  file: string,
  what: string,
): unknown {
  const yaml = readYamlFile(file, "bad-contract", what);
  const metaFile = join(metaDir, `${metaName}.meta.json`);
  const metaSchema = JSON.parse(readFileSync(metaFile, "utf8")) as { $id: string; properties?: object };
  expectOwnFormat(yaml, Object.keys(metaSchema.properties ?? {}), { code: "bad-contract", what });
  const validate = ajv.getSchema(metaSchema.$id) ?? ajv.compile(metaSchema as AnySchema);
  if (!validate(yaml.data)) {
    const [first] = toDiagnostics(validate.errors, yaml.data, what.replace(/\s+/g, "-"));
    const error = validate.errors?.[0];
    const path = (error?.instancePath ?? "").split("/").slice(1);
    throw new AssopayError("bad-contract", `the ${what} is invalid: ${first?.message ?? "unknown problem"}`, {
      location: { file, line: yaml.lineOf(path) },
      hint: `see ${metaFile} for the expected shape`,
    });
  }
  return yaml.data;
}

/** Throws a `bad-contract` error pointing at a value of a data file. */
export function dataError(
  file: string,
  line: number | undefined,
  message: string,
  hint: string,
): AssopayError {
  return new AssopayError("bad-contract", message, { location: { file, line }, hint });
}
