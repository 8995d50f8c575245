import { todayIso } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { parseReporter } from "../../report/index.js";
import type { RunningSandbox } from "../../sandbox/index.js";
import type { BrokerSource } from "../../specs/pact/child-protocol.js";
import {
  adminCredentials,
  httpUrl,
  normalizeTarget,
  type OracleFile,
  parseFormRef,
  resolveOptions,
  type TargetAuth,
  type VerifyOptions,
} from "../../specs/runner/options.js";
import type { CommandContext } from "../command.js";
import {
  choiceFlag,
  dateFlag,
  flagTable,
  listFlag,
  millisecondsOf,
  type ParsedFlags,
  parseFlags,
  portFlag,
  shapesFlag,
  stringFlag,
  wholeFlag,
} from "../flags.js";

/** The flags that name the target and how to reach it: without `--target` they are a usage error. */
const TARGET_FLAGS = `api-root= bearer= admin-bearer= no-auth client-id= client-secret= admin-client-id= admin-client-secret=
  organization= form-type= form-slug= state-url= order-id= empty-form= unverified-org= receiver-url= receiver-port=`;

export const SANDBOX_ONLY = Object.keys(flagTable(TARGET_FLAGS));

const FLAGS = `target= at= ${TARGET_FLAGS} only* planned= reporter= output= force publish-results broker-url=
  provider-version= provider-branch= request-timeout= max-entries= concurrency= oracle= timeout= shapes= cassette*
  data= at-each=`;

/** Their lines in `assopay verify --help`. */
export const PUBLISH_HELP = `  --publish-results          Verify the pacts a Pact Broker holds for the provider (instead of
                             contracts/pacts/) and publish the results to it, the Pact way.
  --broker-url URL           The broker (PactFlow or self-hosted).        env PACT_BROKER_BASE_URL
  --provider-version V       The provider version the results are for.   env ASSOPAY_PROVIDER_VERSION
  --provider-branch B        Its branch (recommended).                    env ASSOPAY_PROVIDER_BRANCH
`;

/** What verify's flags say, read once; the target's own settings are read from `flags` when it is built. */
export type Parsed = ReturnType<typeof parse> & {
  /** `--oracle FILE`, read once the contract is loaded (its listing route ids are the file's keys). */
  oracle?: OracleFile | undefined;
};

/** The entries of `values` that are given: what an options object takes for "the default". */
function given<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

export function parse(context: CommandContext) {
  const flags = parseFlags("verify", context.argv, FLAGS, true);
  const only = listFlag(flags, "only");
  const cassettes = listFlag(flags, "cassette");
  if (cassettes.length > 0 && only.length > 0) {
    throw new AssopayError("usage", "assopay verify: --only does not apply to --cassette", {
      hint: "a rerun judges every recorded interaction; drop --only, or run them apart",
    });
  }
  if (flags.positionals.length > 0 && only.length === 0 && cassettes.length === 0) {
    throw new AssopayError("usage", `assopay verify: unexpected argument "${flags.positionals[0]}"`, {
      hint: "run 'assopay verify --help'",
    });
  }
  const env = context.env;
  /** A flag, or the environment variable standing in for it. */
  const read: Read = (flag, name) => stringFlag(flags, flag, { vars: env, name });
  return {
    target: read("target", "ASSOPAY_TARGET"),
    at: dateFlag("verify", read("at", "ASSOPAY_AT")) ?? todayIso(),
    flags,
    read,
    only: cassettes.length > 0 ? only : [...only, ...flags.positionals],
    /** Cassettes to re-send (`--cassette`, and the arguments after it); empty for a plain verify. */
    cassettes: cassettes.length > 0 ? [...cassettes, ...flags.positionals] : [],
    planned: choiceFlag("verify", "planned", stringFlag(flags, "planned"), ["fail", "warn"] as const, "fail"),
    reporter: parseReporter("verify", stringFlag(flags, "reporter")),
    output: stringFlag(flags, "output"),
    /** `--force`: `--output` may replace a file that is not a report assopay wrote. */
    force: flags.values.force === true,
    pactBroker: publishOptions(flags, read),
    /** The run's time limits given, in milliseconds, and the completeness crawls' bound. */
    limits: given({
      requestTimeoutMs: millisecondsOf(flags, "request-timeout", { example: 30 }),
      runTimeoutMs: millisecondsOf(flags, "timeout", { example: 30 }),
      maxEntries: wholeFlag(flags, "max-entries", { example: 10_000 }),
      concurrency: wholeFlag(flags, "concurrency", { example: 4 }),
    }),
    shapes: shapesFlag("verify", flags),
  };
}

/**
 * The broker to read pacts from and publish results to, or undefined without `--publish-results`.
 * The broker's credentials, when it needs any, are read by Pact itself from PACT_BROKER_TOKEN (or
 * PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD).
 *
 * @example
 * assopay verify --publish-results --broker-url https://broker.example --provider-version "$GIT_SHA" --provider-branch main
 */
function publishOptions(flags: ParsedFlags, read: Read): BrokerSource | undefined {
  const url = read("broker-url", "PACT_BROKER_BASE_URL");
  const providerVersion = read("provider-version", "ASSOPAY_PROVIDER_VERSION");
  const providerBranch = read("provider-branch", "ASSOPAY_PROVIDER_BRANCH");
  if (flags.values["publish-results"] !== true) {
    const named = ["broker-url", "provider-version", "provider-branch"].find(
      (f) => flags.values[f] !== undefined,
    );
    if (named)
      throw new AssopayError("usage", `assopay verify: --${named} needs --publish-results`, {
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
  httpUrl("--broker-url", url, "for example --broker-url https://broker.example");
  return { url: url.replace(/\/+$/, ""), providerVersion, providerBranch };
}

type Read = (flag: string, name: string) => string | undefined;

/**
 * How the target authenticates, from the flags: `--no-auth`, `--bearer` (and `--admin-bearer`), or the
 * clients of its token endpoint (the default); two ways at once are a usage error.
 */
function targetAuth(flags: ParsedFlags, read: Read): TargetAuth | undefined {
  const bearer = read("bearer", "ASSOPAY_BEARER");
  const adminBearer = read("admin-bearer", "ASSOPAY_ADMIN_BEARER");
  const ways = [
    ...(flags.values["no-auth"] === true ? ["--no-auth"] : []),
    ...(bearer !== undefined || adminBearer !== undefined ? ["--bearer"] : []),
    ...(read("client-id", "ASSOPAY_CLIENT_ID") !== undefined ? ["--client-id"] : []),
  ];
  if (ways.length > 1) {
    throw new AssopayError(
      "usage",
      `assopay verify: ${ways.join(" and ")} are two ways to authenticate; give one`,
      {
        hint: "--client-id/--client-secret for a target with a token endpoint, --bearer TOKEN for one without, --no-auth for one that authenticates nobody (flags or ASSOPAY_CLIENT_ID, ASSOPAY_BEARER)",
      },
    );
  }
  if (ways[0] === "--no-auth") return { kind: "none" };
  if (ways[0] !== "--bearer") return undefined;
  if (bearer === undefined) {
    throw new AssopayError("usage", "assopay verify: --admin-bearer needs --bearer", {
      hint: "--bearer is the token of the client without organization_admin, which reads the listings",
    });
  }
  return { kind: "bearer", reader: bearer, admin: adminBearer };
}

/**
 * The flags that help verify without provider states (`--order-id`, `--empty-form`, `--unverified-org`,
 * `--receiver-url`, `--receiver-port`), as options: only those given.
 */
function discoveryOptions(flags: ParsedFlags, formType: string) {
  const emptyForm = stringFlag(flags, "empty-form");
  const port = stringFlag(flags, "receiver-port");
  const hint = "the local port your tunnel forwards to, for example --receiver-port 8787";
  return given({
    orderId: stringFlag(flags, "order-id"),
    emptyForm: emptyForm === undefined ? undefined : parseFormRef(emptyForm, formType),
    unverifiedOrg: stringFlag(flags, "unverified-org"),
    receiverUrl: stringFlag(flags, "receiver-url"),
    receiverPort: port === undefined ? undefined : portFlag("verify", port, 0, "receiver-port", hint),
  });
}

/** Options for a target given by the user: every missing setting is named with its environment variable. */
export function targetOptions(parsed: Parsed, target: string): VerifyOptions {
  const { flags, read } = parsed;
  normalizeTarget(target);
  const auth = targetAuth(flags, read);
  const apiRoot = read("api-root", "ASSOPAY_API_ROOT");
  const required: (readonly [string, string])[] = [
    ...(auth
      ? []
      : ([
          ["client-id", "ASSOPAY_CLIENT_ID"],
          ["client-secret", "ASSOPAY_CLIENT_SECRET"],
        ] as const)),
    ["organization", "ASSOPAY_ORG"],
    ["form-type", "ASSOPAY_FORM_TYPE"],
    ["form-slug", "ASSOPAY_FORM_SLUG"],
  ];
  const missing = required.filter(([flag, name]) => !read(flag, name));
  if (missing.length > 0) {
    throw new AssopayError(
      "usage",
      `assopay verify --target needs ${missing.map(([flag]) => `--${flag}`).join(", ")}`,
      {
        hint: `give them as flags or as ${missing.map(([, name]) => name).join(", ")}`,
      },
    );
  }
  return resolveOptions({
    target,
    ...(apiRoot === undefined ? {} : { apiRoot }),
    ...(auth
      ? { auth }
      : {
          reader: {
            clientId: read("client-id", "ASSOPAY_CLIENT_ID") ?? "",
            clientSecret: read("client-secret", "ASSOPAY_CLIENT_SECRET") ?? "",
          },
          admin: adminCredentials(read),
        }),
    organizationSlug: read("organization", "ASSOPAY_ORG") ?? "",
    formType: read("form-type", "ASSOPAY_FORM_TYPE") ?? "",
    formSlug: read("form-slug", "ASSOPAY_FORM_SLUG") ?? "",
    stateUrl: read("state-url", "ASSOPAY_STATE_URL"),
    ...discoveryOptions(flags, read("form-type", "ASSOPAY_FORM_TYPE") ?? ""),
    ...runSettings(parsed),
  });
}

/** Options for the embedded sandbox: its own credentials, names and state URL. */
export function sandboxOptions(parsed: Parsed, sandbox: RunningSandbox): VerifyOptions {
  return resolveOptions({
    target: sandbox.url,
    embedded: true,
    ...sandbox.credentials,
    stateUrl: sandbox.stateUrl,
    ...runSettings(parsed),
  });
}

/** What verify's flags say of the run, whatever the target: the date, the checks, the limits. */
function runSettings(parsed: Parsed) {
  const { at, only, planned, pactBroker, oracle, limits } = parsed;
  return { at, only, planned, pactBroker, oracle, ...limits };
}
