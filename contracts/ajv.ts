import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * The project's one AJV set-up: draft 2020-12, strict mode, every error collected, the standard formats.
 * Created once per loaded contract (never at module level) and shared by everything that validates.
 */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    // `required` inside anyOf branches names properties declared beside it: legal and clearer.
    strictRequired: false,
    allErrors: true,
    allowUnionTypes: true,
    // Errors carry their schema, so a pattern error can say what it expects in words.
    verbose: true,
  });
  addFormats(ajv);
  return ajv;
}
