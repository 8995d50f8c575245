import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AnySchema } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { AssopayError } from "../core/errors.js";
import { expectOwnFormat, readYamlFile, type YamlFile, type YamlReading } from "../core/yaml-file.js";
import { createAjv } from "./ajv.js";
import { toDiagnostics } from "./error-sentences.js";

/**
 * Reads one of the contract's YAML data files and validates it against its meta-schema
 * (`contracts/meta/<name>.meta.json`) with {@link checkDataFile}; returns the file, lines and all.
 */
export function readDataFile(
  metaDir: string,
  metaName: string,
  file: string,
  what: string,
  ajv: Ajv2020 = createAjv(),
): YamlFile {
  const yaml = readYamlFile(file, "bad-contract", what);
  checkDataFile(ajv, yaml, join(metaDir, `${metaName}.meta.json`), { code: "bad-contract", what });
  return yaml;
}

/**
 * Checks a parsed data file against its meta-schema `metaFile`: a file of another format is refused
 * ({@link expectOwnFormat}, with `reading`), then the first problem is thrown as a `reading.code` error
 * with the line of the offending value and `hint` (default: see the meta-schema). The first problem is
 * the deepest error that names a value (not the `oneOf`/`anyOf` around it); messages name its path from `root`.
 */
export function checkDataFile(
  ajv: Ajv2020,
  yaml: YamlFile,
  metaFile: string,
  reading: YamlReading,
  hint = `see ${metaFile} for the expected shape`,
  root = reading.what.replace(/\s+/g, "-"),
): void {
  const metaSchema = JSON.parse(readFileSync(metaFile, "utf8")) as { $id: string; properties?: object };
  expectOwnFormat(yaml, Object.keys(metaSchema.properties ?? {}), reading);
  const validate = ajv.getSchema(metaSchema.$id) ?? ajv.compile(metaSchema as AnySchema);
  if (validate(yaml.data)) return;
  const errors = [...(validate.errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length);
  const error = errors.find((e) => e.keyword !== "oneOf" && e.keyword !== "anyOf") ?? errors[0];
  const [first] = toDiagnostics(error ? [error] : [], yaml.data, root);
  const line = yaml.lineOf((error?.instancePath ?? "").split("/").slice(1));
  const message = `the ${reading.what} is invalid: ${first?.message ?? "unknown problem"}`;
  throw new AssopayError(reading.code, message, { location: { file: yaml.file, line }, hint });
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
