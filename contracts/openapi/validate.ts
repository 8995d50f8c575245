import { compileErrors, validate } from "@readme/openapi-parser";
import { AssopayError } from "../../core/errors.js";

/**
 * Checks a document against the OpenAPI specification with @readme/openapi-parser. The export must always
 * pass: a failure is a bug of the exporter or a schema it cannot carry, reported as `bad-contract`.
 */
export async function assertValidOpenApi(document: object): Promise<void> {
  const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
  if (!result.valid) {
    throw new AssopayError("bad-contract", `the OpenAPI export is not valid: ${compileErrors(result)}`, {
      hint: "a schema under contracts/schemas may use a construct OpenAPI 3.1 does not carry",
    });
  }
}
