import { parseFormRef, type VerifyOptionsInput } from "../../specs/runner/options.js";
import { type ParsedFlags, portFlag, stringFlag } from "../flags.js";

/** `--receiver-port`: the local port a tunnel forwards to. */
function receiverPort(text: string): number {
  const hint = "the local port your tunnel forwards to, for example --receiver-port 8787";
  return portFlag("verify", text, 0, "receiver-port", hint);
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
