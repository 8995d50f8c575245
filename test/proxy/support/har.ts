import { createRequire } from "node:module";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import type { Cassette } from "../../../proxy/cassette/format.js";

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const require = createRequire(import.meta.url);

/**
 * The HAR 1.2 JSON Schema of the `har-schema` package (the schema har-validator applied, kept on its
 * own), checked by ajv: the errors of a document, or `[]`. Its files are draft-06 and carry a keyword of
 * their own (`optional`), hence ajv's draft-06 meta-schema and non-strict mode.
 */
export function harSchemaErrors(document: unknown): string[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as object);
  const schemas = require("har-schema") as Record<string, object>;
  for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  const validate = ajv.getSchema("har.json#");
  if (!validate) throw new Error("har-schema has no har.json");
  return validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** A cassette's interactions without where they sit in the file: what two cassettes compare by. */
export function interactionsOf(cassette: Cassette) {
  return cassette.interactions.map(({ id, recordedAt, request, response, notification }) => ({
    id,
    recordedAt,
    request,
    response,
    ...(notification ? { notification } : {}),
  }));
}
