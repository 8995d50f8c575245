import type { ContractShapes } from "../../contracts/index.js";
import { type IsoDay, todayIso } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { parseReporter, type ReporterName } from "../../report/index.js";
import type { RunningSandbox } from "../../sandbox/index.js";
import type { BrokerSource } from "../../specs/pact/child-protocol.js";
import {
  adminCredentials,
  normalizeTarget,
  type OracleFile,
  resolveOptions,
  type TargetAuth,
  type VerifyOptions,
} from "../../specs/runner/options.js";
import type { PlannedPolicy } from "../../specs/runner/types.js";
import type { CommandContext } from "../command.js";
import {
  choiceFlag,
  dateFlag,
  type FlagSpec,
  listFlag,
  type ParsedFlags,
  parseFlags,
  secondsFlag,
  secondsToMs,
  stringFlag,
  wholeNumberFlag,
} from "../flags.js";
import { AT_EACH_FLAG } from "./at-each.js";
import { DATA_FLAG } from "./sandbox-data.js";
import { discoveryOptions } from "./verify-discovery.js";
import { PUBLISH_FLAGS, publishOptions } from "./verify-publish.js";

export const FLAGS: FlagSpec = {
  target: { type: "string" },
  "api-root": { type: "string" },
  bearer: { type: "string" },
  "admin-bearer": { type: "string" },
  "no-auth": { type: "boolean" },
  at: { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  "admin-client-id": { type: "string" },
  "admin-client-secret": { type: "string" },
  organization: { type: "string" },
  "form-type": { type: "string" },
  "form-slug": { type: "string" },
  "state-url": { type: "string" },
  "order-id": { type: "string" },
  "empty-form": { type: "string" },
  "unverified-org": { type: "string" },
  "receiver-url": { type: "string" },
  "receiver-port": { type: "string" },
  only: { type: "string", multiple: true },
  planned: { type: "string" },
  reporter: { type: "string" },
  output: { type: "string" },
  force: { type: "boolean" },
  ...PUBLISH_FLAGS,
  "request-timeout": { type: "string" },
  "max-entries": { type: "string" },
  concurrency: { type: "string" },
  oracle: { type: "string" },
  timeout: { type: "string" },
  shapes: { type: "string" },
  cassette: { type: "string", multiple: true },
  ...DATA_FLAG,
  ...AT_EACH_FLAG,
};

const SHAPES = ["seed", "document"] as const satisfies readonly ContractShapes[];

export const SANDBOX_ONLY = [
  "api-root",
  "bearer",
  "admin-bearer",
  "no-auth",
  "client-id",
  "client-secret",
  "admin-client-id",
  "admin-client-secret",
  "organization",
  "form-type",
  "form-slug",
  "state-url",
  "order-id",
  "empty-form",
  "unverified-org",
  "receiver-url",
  "receiver-port",
];

export interface Parsed {
  target: string | undefined;
  at: IsoDay;
  flags: ParsedFlags;
  env: CommandContext["env"];
  only: string[];
  /** Cassettes to re-send (`--cassette`, and the arguments after it); empty for a plain verify. */
  cassettes: string[];
  planned: PlannedPolicy;
  reporter: ReporterName;
  output: string | undefined;
  /** `--force`: `--output` may replace a file that is not a report assopay wrote. */
  force: boolean;
  pactBroker: BrokerSource | undefined;
  /** The run's time limits, in milliseconds, and the completeness crawls' bound. */
  limits: {
    requestTimeoutMs: number | undefined;
    runTimeoutMs: number | undefined;
    maxEntries: number | undefined;
    concurrency: number | undefined;
  };
  shapes: ContractShapes;
  /** `--oracle FILE`, read once the contract is loaded (its listing route ids are the file's keys). */
  oracle?: OracleFile | undefined;
}

/** A time limit in seconds (fractions allowed), as milliseconds. */
function timeLimitMs(flag: string, text: string | undefined): number | undefined {
  const seconds = secondsFlag(text, { verb: "verify", flag, example: 30 });
  return seconds === undefined ? undefined : secondsToMs(seconds);
}

export function parse(context: CommandContext): Parsed {
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
  const atText = stringFlag(flags, "at", { vars: env, name: "ASSOPAY_AT" });
  return {
    target: stringFlag(flags, "target", { vars: env, name: "ASSOPAY_TARGET" }),
    at: dateFlag("verify", atText) ?? todayIso(),
    flags,
    env,
    only: cassettes.length > 0 ? only : [...only, ...flags.positionals],
    cassettes: cassettes.length > 0 ? [...cassettes, ...flags.positionals] : [],
    planned: choiceFlag("verify", "planned", stringFlag(flags, "planned"), ["fail", "warn"] as const, "fail"),
    reporter: parseReporter("verify", stringFlag(flags, "reporter")),
    output: stringFlag(flags, "output"),
    force: flags.values.force === true,
    pactBroker: publishOptions(flags, env),
    limits: {
      requestTimeoutMs: timeLimitMs("request-timeout", stringFlag(flags, "request-timeout")),
      runTimeoutMs: timeLimitMs("timeout", stringFlag(flags, "timeout")),
      maxEntries: wholeNumberFlag(stringFlag(flags, "max-entries"), {
        verb: "verify",
        flag: "max-entries",
        example: 10_000,
      }),
      concurrency: wholeNumberFlag(stringFlag(flags, "concurrency"), {
        verb: "verify",
        flag: "concurrency",
        example: 4,
      }),
    },
    shapes: choiceFlag("verify", "shapes", stringFlag(flags, "shapes"), SHAPES, "seed"),
  };
}

/** The limits as options: only those given, so the defaults apply to the rest. */
export function limitOptions(parsed: Parsed): {
  requestTimeoutMs?: number;
  runTimeoutMs?: number;
  maxEntries?: number;
  concurrency?: number;
} {
  const { requestTimeoutMs, runTimeoutMs, maxEntries, concurrency } = parsed.limits;
  return {
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    ...(runTimeoutMs === undefined ? {} : { runTimeoutMs }),
    ...(maxEntries === undefined ? {} : { maxEntries }),
  };
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

/** Options for a target given by the user: every missing setting is named with its environment variable. */
export function targetOptions(parsed: Parsed, target: string): VerifyOptions {
  const { flags, env } = parsed;
  normalizeTarget(target);
  const read: Read = (flag, name) => stringFlag(flags, flag, { vars: env, name });
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
    at: parsed.at,
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
    only: parsed.only,
    planned: parsed.planned,
    pactBroker: parsed.pactBroker,
    oracle: parsed.oracle,
    ...limitOptions(parsed),
  });
}

/** Options for the embedded sandbox: its own credentials, names and state URL. */
export function sandboxOptions(parsed: Parsed, sandbox: RunningSandbox): VerifyOptions {
  const { credentials } = sandbox;
  return resolveOptions({
    target: sandbox.url,
    embedded: true,
    at: parsed.at,
    reader: credentials.reader,
    admin: credentials.admin,
    organizationSlug: credentials.organizationSlug,
    formType: credentials.formType,
    formSlug: credentials.formSlug,
    stateUrl: sandbox.stateUrl,
    only: parsed.only,
    planned: parsed.planned,
    pactBroker: parsed.pactBroker,
    oracle: parsed.oracle,
    ...limitOptions(parsed),
  });
}
