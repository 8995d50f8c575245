import type { Route } from "../contracts/index.js";
import type { SandboxCore } from "./core.js";
import { type Exchange, readJson, sendValidation } from "./http.js";

/**
 * Reads a JSON body and checks it against the route's request schema from the contract. On any problem
 * (malformed JSON, wrong field) it answers 400 in the ASP.NET validation shape and returns `undefined`.
 */
export async function readRequestBody<T>(
  core: SandboxCore,
  ex: Exchange,
  route: Route,
): Promise<T | undefined> {
  const parsed = await readJson(ex);
  if (!parsed.ok) return undefined;
  const schema = route.requestBody?.schema;
  if (schema === undefined) return parsed.value as T;
  const diagnostics = core.contract.schemas.validate(schema, parsed.value, "body");
  if (diagnostics.length > 0) {
    const errors: Record<string, string[]> = {};
    for (const d of diagnostics) {
      const field = d.path.replace(/^body\.?/, "") || "$";
      errors[field] = [...(errors[field] ?? []), d.message];
    }
    sendValidation(ex, errors);
    return undefined;
  }
  return parsed.value as T;
}
