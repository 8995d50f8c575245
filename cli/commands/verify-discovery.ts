import { AssopayError } from "../../core/errors.js";
import { parseFormRef, type VerifyOptionsInput } from "../../specs/runner/options.js";
import { type ParsedFlags, stringFlag } from "../flags.js";

function receiverPort(text: string): number {
  const port = Number(text);
  if (text.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new AssopayError(
      "usage",
      `assopay verify: --receiver-port must be a whole number from 0 to 65535, got "${text}"`,
      { hint: "the local port your tunnel forwards to, for example --receiver-port 8787" },
    );
  }
  return port;
}

/**
 * The flags that help verify without provider states (`--order-id`, `--empty-form`, `--unverified-org`,
 * `--receiver-url`, `--receiver-port`), as options: only those given.
 */
export function discoveryOptions(flags: ParsedFlags, formType: string): Partial<VerifyOptionsInput> {
  const orderId = stringFlag(flags, "order-id");
  const emptyForm = stringFlag(flags, "empty-form");
  const unverifiedOrg = stringFlag(flags, "unverified-org");
  const receiverUrl = stringFlag(flags, "receiver-url");
  const port = stringFlag(flags, "receiver-port");
  return {
    ...(orderId === undefined ? {} : { orderId }),
    ...(emptyForm === undefined ? {} : { emptyForm: parseFormRef(emptyForm, formType) }),
    ...(unverifiedOrg === undefined ? {} : { unverifiedOrg }),
    ...(receiverUrl === undefined ? {} : { receiverUrl }),
    ...(port === undefined ? {} : { receiverPort: receiverPort(port) }),
  };
}
