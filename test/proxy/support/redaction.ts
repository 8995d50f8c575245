import { redactBody } from "../../../proxy/redaction/redact.js";
import { createRedactor, type Redactor } from "../../../proxy/redaction/redactor.js";

/** A recording redactor (it learns the secrets it replaces), with personal data too when `pii`. */
export const recorder = (pii = false): Redactor => createRedactor(undefined, pii, true);

/** A textual body of `type` as the recorder writes it. */
export const text = (body: string, type: string, r = recorder()): string => {
  const out = redactBody({ text: body }, type, r);
  return out && "text" in out ? out.text : "";
};
