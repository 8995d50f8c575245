import { AssopayError } from "../../core/errors.js";
import type { BrokerSource } from "../../specs/pact/child-protocol.js";
import type { CommandContext } from "../command.js";
import { type FlagSpec, type ParsedFlags, stringFlag } from "../flags.js";

/** The flags of `assopay verify --publish-results`. */
export const PUBLISH_FLAGS: FlagSpec = {
  "publish-results": { type: "boolean" },
  "broker-url": { type: "string" },
  "provider-version": { type: "string" },
  "provider-branch": { type: "string" },
};

/** Their lines in `assopay verify --help`. */
export const PUBLISH_HELP = `  --publish-results          Verify the pacts a Pact Broker holds for the provider (instead of
                             contracts/pacts/) and publish the results to it, the Pact way.
  --broker-url URL           The broker (PactFlow or self-hosted).        env PACT_BROKER_BASE_URL
  --provider-version V       The provider version the results are for.   env ASSOPAY_PROVIDER_VERSION
  --provider-branch B        Its branch (recommended).                    env ASSOPAY_PROVIDER_BRANCH
`;

/**
 * The broker to read pacts from and publish results to, or undefined without `--publish-results`.
 * The broker's credentials, when it needs any, are read by Pact itself from PACT_BROKER_TOKEN (or
 * PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD).
 *
 * @example
 * assopay verify --publish-results --broker-url https://broker.example --provider-version "$GIT_SHA" --provider-branch main
 */
export function publishOptions(flags: ParsedFlags, env: CommandContext["env"]): BrokerSource | undefined {
  const url = stringFlag(flags, "broker-url", { vars: env, name: "PACT_BROKER_BASE_URL" });
  const providerVersion = stringFlag(flags, "provider-version", {
    vars: env,
    name: "ASSOPAY_PROVIDER_VERSION",
  });
  const providerBranch = stringFlag(flags, "provider-branch", { vars: env, name: "ASSOPAY_PROVIDER_BRANCH" });
  if (flags.values["publish-results"] !== true) {
    const given = ["broker-url", "provider-version", "provider-branch"].find(
      (f) => flags.values[f] !== undefined,
    );
    if (given)
      throw new AssopayError("usage", `assopay verify: --${given} needs --publish-results`, {
        hint: "add --publish-results to verify the broker's pacts and publish the results",
      });
    return undefined;
  }
  if (!url || !providerVersion) {
    throw new AssopayError(
      "usage",
      "assopay verify --publish-results needs --broker-url and --provider-version",
      {
        hint: "for example --broker-url https://broker.example --provider-version $(git rev-parse HEAD)",
      },
    );
  }
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http");
  } catch {
    throw new AssopayError("usage", `--broker-url must be an http(s) URL, got "${url}"`, {
      hint: "for example --broker-url https://broker.example",
    });
  }
  return { url: url.replace(/\/+$/, ""), providerVersion, providerBranch };
}
