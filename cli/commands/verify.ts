import type { Writable } from "node:stream";
import type { Contract, TimelineDate } from "../../contracts/index.js";
import { type IsoDay, todayIso } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { mayReplace, writeOwnedFile } from "../../core/owned-file.js";
import { redactSecretText } from "../../core/secrets/text.js";
import {
  type Finding,
  parseReporter,
  prettyCaseLine,
  prettyCounts,
  prettyFailures,
  prettySummary,
  REPORTER_CHOICE,
} from "../../report/index.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import type { BrokerSource } from "../../specs/pact/child-protocol.js";
import { readOracle } from "../../specs/pagination/oracle.js";
import { formatReport, verifyHeader, verifyReport } from "../../specs/report/index.js";
import { type DatedRun, formatTimelineReport, type TimelineBasis } from "../../specs/report/timeline.js";
import { type RerunOptions, resolveRerunOptions } from "../../specs/rerun/options.js";
import { runRerun } from "../../specs/rerun/run.js";
import { createMemo, sharingMemo } from "../../specs/runner/memo.js";
import {
  adminCredentials,
  normalizeTarget,
  type OracleFile,
  parseFormRef,
  requireHttpUrl,
  resolveOptions,
  type TargetAuth,
  type VerifyOptions,
} from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { CHECK_GROUPS, exitCodeOf } from "../../specs/runner/types.js";
import { type Command, type CommandContext, contractLoader } from "../command.js";
import {
  atEachFlag,
  choiceFlag,
  colorOf,
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
import { dataFlag } from "./sandbox.js";

/** The flags that name the target and how to reach it: without `--target` they are a usage error. */
const TARGET_FLAGS = `api-root= bearer= admin-bearer= no-auth client-id= client-secret= admin-client-id= admin-client-secret=
  organization= form-type= form-slug= state-url= order-id= empty-form= unverified-org= receiver-url= receiver-port=`;

const SANDBOX_ONLY = Object.keys(flagTable(TARGET_FLAGS));

const FLAGS = `target= at= ${TARGET_FLAGS} only* planned= reporter= output= force publish-results broker-url=
  provider-version= provider-branch= request-timeout= max-entries= concurrency= oracle= timeout= shapes= cassette*
  data= at-each=`;

/** What verify's flags say, read once; the target's own settings are read from `flags` when it is built. */
type Parsed = ReturnType<typeof parse> & {
  /** `--oracle FILE`, read once the contract is loaded (its listing route ids are the file's keys). */
  oracle?: OracleFile | undefined;
};

function parse(context: CommandContext) {
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
    limits: {
      requestTimeoutMs: millisecondsOf(flags, "request-timeout", { example: 30 }),
      runTimeoutMs: millisecondsOf(flags, "timeout", { example: 30 }),
      maxEntries: wholeFlag(flags, "max-entries", { example: 10_000 }),
      concurrency: wholeFlag(flags, "concurrency", { example: 4 }),
    },
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
  requireHttpUrl("--broker-url", url, "for example --broker-url https://broker.example");
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

/** What a target needs besides its URL, each a flag or the environment variable standing in for it. */
const TARGET_SETTINGS = {
  "client-id": "ASSOPAY_CLIENT_ID",
  "client-secret": "ASSOPAY_CLIENT_SECRET",
  organization: "ASSOPAY_ORG",
  "form-type": "ASSOPAY_FORM_TYPE",
  "form-slug": "ASSOPAY_FORM_SLUG",
} as const;

/**
 * The run's options: the date, checks and limits the flags say, against the embedded sandbox (its own
 * credentials, names and state URL) or the target given, every missing setting of which is named with
 * its environment variable.
 */
function verifyOptions(parsed: Parsed, sandbox: RunningSandbox | undefined): VerifyOptions {
  const { flags, read, at, only, planned, pactBroker, oracle, limits } = parsed;
  const run = { at, only, planned, pactBroker, oracle, ...limits };
  if (sandbox) {
    return resolveOptions({
      target: sandbox.url,
      embedded: true,
      ...sandbox.credentials,
      stateUrl: sandbox.stateUrl,
      ...run,
    });
  }
  const target = parsed.target ?? "";
  normalizeTarget(target);
  const auth = targetAuth(flags, read);
  const setting = (flag: keyof typeof TARGET_SETTINGS) => read(flag, TARGET_SETTINGS[flag]) ?? "";
  // The clients are needed only for a target logged into through its token endpoint (no --bearer, --no-auth).
  const missing = (Object.keys(TARGET_SETTINGS) as (keyof typeof TARGET_SETTINGS)[]).filter(
    (flag) => !(auth && flag.startsWith("client-")) && setting(flag) === "",
  );
  if (missing.length > 0) {
    throw new AssopayError(
      "usage",
      `assopay verify --target needs ${missing.map((flag) => `--${flag}`).join(", ")}`,
      { hint: `give them as flags or as ${missing.map((flag) => TARGET_SETTINGS[flag]).join(", ")}` },
    );
  }
  const emptyForm = stringFlag(flags, "empty-form");
  const port = stringFlag(flags, "receiver-port");
  const portHint = "the local port your tunnel forwards to, for example --receiver-port 8787";
  return resolveOptions({
    target,
    apiRoot: read("api-root", "ASSOPAY_API_ROOT"),
    ...(auth
      ? { auth }
      : {
          reader: { clientId: setting("client-id"), clientSecret: setting("client-secret") },
          admin: adminCredentials(read),
        }),
    organizationSlug: setting("organization"),
    formType: setting("form-type"),
    formSlug: setting("form-slug"),
    stateUrl: read("state-url", "ASSOPAY_STATE_URL"),
    // The flags that help verify without provider states.
    orderId: stringFlag(flags, "order-id"),
    emptyForm: emptyForm === undefined ? undefined : parseFormRef(emptyForm, setting("form-type")),
    unverifiedOrg: stringFlag(flags, "unverified-org"),
    receiverUrl: stringFlag(flags, "receiver-url"),
    receiverPort: port === undefined ? undefined : portFlag("verify", port, 0, "receiver-port", portHint),
    ...run,
  });
}

/**
 * A rerun's options: the embedded sandbox's clients, or the given ones (`--client-id`/`--client-secret`
 * required with `--target`, the admin pair optional but whole).
 */
function rerunOptions(parsed: Parsed, sandbox: RunningSandbox | undefined): RerunOptions {
  const { cassettes, at, planned, read } = parsed;
  const common = { cassettes, at, planned, ...parsed.limits };
  if (sandbox) {
    return resolveRerunOptions({ ...common, target: sandbox.url, embedded: true, ...sandbox.credentials });
  }
  const clientId = read("client-id", "ASSOPAY_CLIENT_ID");
  const clientSecret = read("client-secret", "ASSOPAY_CLIENT_SECRET");
  if (!clientId || !clientSecret) {
    throw new AssopayError(
      "usage",
      "assopay verify --cassette --target needs --client-id and --client-secret",
      {
        hint: "give them as flags or as ASSOPAY_CLIENT_ID, ASSOPAY_CLIENT_SECRET",
      },
    );
  }
  return resolveRerunOptions({
    ...common,
    target: parsed.target ?? "",
    reader: { clientId, clientSecret },
    admin: adminCredentials(read),
  });
}

const HELP = `assopay verify: judge a provider (default: the embedded sandbox) against the contract

Usage:
  assopay verify [--target URL [--api-root PATH]] [--at YYYY-MM-DD | --at-each timeline|DAY,DAY...]
                 [--client-id ID --client-secret S] [--admin-client-id ID --admin-client-secret S]
                 [--bearer TOKEN [--admin-bearer TOKEN] | --no-auth]
                 [--organization SLUG --form-type T --form-slug S] [--state-url URL]
                 [--order-id ID] [--empty-form [TYPE/]SLUG] [--unverified-org SLUG]
                 [--receiver-url URL] [--receiver-port N]
                 [--only GROUP...] [--planned fail|warn] [--reporter ${REPORTER_CHOICE}] [--output FILE [--force]]
                 [--request-timeout SECONDS] [--timeout SECONDS] [--max-entries N] [--concurrency N]
                 [--oracle FILE]
  assopay verify --cassette FILE... [--target URL --client-id ID --client-secret S] [--at YYYY-MM-DD]

Without --target, the embedded sandbox is started at the --at date and verified with its own
credentials, organization, form and provider states.

Target:
  --target URL               Host root of the provider (the token endpoint is POST {URL}/oauth2/token).
                             env ASSOPAY_TARGET
  --client-id ID             Client that reads the listings (without organization_admin).
  --client-secret S          env ASSOPAY_CLIENT_ID, ASSOPAY_CLIENT_SECRET
  --admin-client-id ID       Client with the organization_admin right (order detail, files).
  --admin-client-secret S    env ASSOPAY_ADMIN_CLIENT_ID, ASSOPAY_ADMIN_CLIENT_SECRET
                             Without it the rights checks are skipped.
  --api-root PATH            Prefix of the target's v5 paths (default /v5): / for a mock of the
                             provider's document, served without /v5.    env ASSOPAY_API_ROOT
  --bearer TOKEN             A target without a token endpoint: send this fixed token instead of
  --admin-bearer TOKEN       logging in (the admin one where organization_admin is needed).
                             env ASSOPAY_BEARER, ASSOPAY_ADMIN_BEARER
  --no-auth                  A target that authenticates nobody: no Authorization header; the
                             authentication checks skip. (docs/verify.md, "Verifying a mock")
  --organization SLUG        Organization whose listings are read.       env ASSOPAY_ORG
  --form-type T              Form type (Event, Membership, Donation…).    env ASSOPAY_FORM_TYPE
  --form-slug S              Form slug.                                   env ASSOPAY_FORM_SLUG
  --state-url URL            Provider-state setup URL (Pact convention, POST {state, params, action}).
                             env ASSOPAY_STATE_URL. Without it, verify finds what it needs through
                             the public API (orders, forms, a checkout it pays) and says what it used.

Without provider states (each helps a check that would otherwise skip part of its work):
  --order-id ID              An order with an attached file (rights); default: the organization's
                             orders are read, at most 50 details, for one.
  --empty-form [TYPE/]SLUG   A form offering custom fields and options, without orders yet (public
                             form "before the first order"); default: a form without orders found in
                             GET /v5/organizations/{slug}/forms. TYPE defaults to --form-type.
  --unverified-org SLUG      A newly registered, unverified association (association verification).
  --receiver-url URL         Public address (a tunnel) forwarding to the notification receiver, for a
                             target off this machine; without it notifications need a local target.
  --receiver-port N          Port the receiver listens on, on 127.0.0.1 (default: any free port).

What to judge:
  --at YYYY-MM-DD            Judge the rules in force at that date (default: today). env ASSOPAY_AT
  --at-each timeline|DAY,DAY...
                             One run at several dates, one report with a matrix of checks x dates:
                             "timeline" is the day before and the day of each dated change, plus today.
                             The embedded sandbox starts afresh at each date; a --target with --state-url
                             is moved to each date ("the service date" state); a --target without
                             states is crawled once and judged by each date's rules (docs/report.md).
  --only GROUP...            Run only these groups or check ids (repeat, or separate with commas):
                             ${CHECK_GROUPS.join(", ")}
  --planned fail|warn        A failure resting only on a planned timeline entry (count removal):
                             fail (default) or warn.
  --shapes seed|document     Where the seed and the provider's document disagree (docs/contracts.md,
                             "Known divergences"), judge by the seed's shape (default) or the document's.
                             The embedded sandbox then serves that shape too.
  --data FILE.yaml           The embedded sandbox serves your own organizations, forms, orders and
                             clients (docs/sandbox.md, "Your own data"); verify reads its main form.
  --oracle FILE              The ids each listing must hold, a YAML or JSON map from
                             listing route ids to lists of ids (docs/verify.md, "An oracle"); an id
                             that every crawl lacks is then a confirmed loss (pagination.complete).

Rerun (docs/verify.md, "Re-sending recorded sessions"):
  --cassette FILE...         Send every recorded request of the cassettes to the target, in order, with
                             its own tokens and ids, and judge each answer (one outcome per interaction).
                             Needs only --client-id/--client-secret (and the admin pair) with --target.

Time limits (seconds, fractions allowed: 1.5):
  --request-timeout SECONDS  Longest one request may take, to its body's last byte (default 30). A
                             target that takes the connection and never answers fails within it.
  --timeout SECONDS          Longest the whole run may take (default: no limit). Checks it leaves
                             unrun get an error verdict saying so.
  --max-entries N            Completeness: a listing holding more entries is not crawled again at the
                             other page sizes (7 and the largest), and its checks say so (default 10000).
  --concurrency N            Requests in flight at once per host at most (default 4; 1 sends one at a
                             time). A 429 pauses every request to the host for its Retry-After; one
                             still answered 429 after five waits ends the run (exit 2), as does a
                             Retry-After above 60 s: a rate limit is never a verdict.

Pact Broker:
  --publish-results          Verify the pacts a Pact Broker holds for the provider (instead of
                             contracts/pacts/) and publish the results to it, the Pact way.
  --broker-url URL           The broker (PactFlow or self-hosted).        env PACT_BROKER_BASE_URL
  --provider-version V       The provider version the results are for.   env ASSOPAY_PROVIDER_VERSION
  --provider-branch B        Its branch (recommended).                    env ASSOPAY_PROVIDER_BRANCH

Reports:
  --reporter ${REPORTER_CHOICE}
                             Terminal text (default), its failures and counts only (compact), JSON,
                             JUnit XML (one test case per check), or
                             one self-contained HTML page (docs/report.md).
  --output FILE              Write the report to FILE (the terminal then shows the pretty lines). An
                             existing FILE is replaced only when it is a report assopay wrote.
  --force                    Let --output replace any file.
  -h, --help                 This text.

Exit codes: 0 every rule holds (skips and warnings allowed), 1 a rule is broken (or a check could
not run), 2 bad usage, refused credentials, a target without the token endpoint asked (a 404 there),
or an unreachable target.

Examples:
  assopay verify                                      # the embedded sandbox, today
  assopay verify --at 2025-06-29 --only versions      # just before the v3 switch-off
  assopay verify --at-each timeline --reporter html --output verify.html   # every dated change
  assopay verify --target https://api.helloasso-sandbox.com --client-id … --client-secret … \\
    --organization my-asso --form-type Event --form-slug gala --reporter junit --output verify.xml
  assopay verify --target http://127.0.0.1:4010 --api-root / --bearer any-token \\
    --organization my-org --form-type Event --form-slug my-form --only schemas,pagination,counts
`;

/** Everything verify prints as it goes (header, live lines, warnings) goes through the one redactor. */
function write(stream: Writable, text: string) {
  stream.write(redactSecretText(text));
}

/** The embedded sandbox verify runs against at `at` (with `--data`'s data), or none with `--target`. */
async function embeddedSandbox(
  parsed: Parsed,
  at: IsoDay,
  contract: Contract,
  data = parsed.target === undefined ? dataFlag(parsed.flags, 1) : undefined,
) {
  if (parsed.target !== undefined) return undefined;
  return startSandbox({ port: 0, at, shapes: parsed.shapes, contract, ...(data ? { data } : {}) });
}

/** Writes the report to `--output`; a file that cannot be written is bad input (exit 2). */
function writeOutput(output: string, text: string): void {
  try {
    writeOwnedFile(output, text);
  } catch (error) {
    throw new AssopayError("bad-input", `cannot write the report to ${output}: ${(error as Error).message}`, {
      hint: "check that the folder exists and is writable",
    });
  }
}

/** What a provider at a fixed date answers the same at every date: its crawls and the coordinates. */
const SHARED_KEYS = ["coordinates", "crawl:", "completeness:"] as const;

/** How the dates are judged, said in the report: the basis and what is shared between dates. */
function basisOf(parsed: Parsed): TimelineBasis {
  if (parsed.target === undefined)
    return {
      basis: "behaviour-at-each-date",
      note: "A fresh embedded sandbox per date, started at that date, as a one-date run; shared between dates: the contract and its compiled schemas.",
    };
  if (parsed.read("state-url", "ASSOPAY_STATE_URL") !== undefined)
    return {
      basis: "behaviour-at-each-date",
      note: 'The target was moved to each date through its "the service date" provider state, and back to it after each teardown; shared between dates: the contract.',
    };
  return {
    basis: "one-behaviour-each-date-rules",
    note: "The target offers no provider states, so its date cannot be set: today's behaviour is judged by each date's rules. Its crawls were made once and judged at every date; checks that change its data ran at each date.",
  };
}

/**
 * `assopay verify --at-each`: one verify per date, reported as one report with a matrix. The embedded
 * sandbox is started afresh at each date; a target with a state URL is moved to each date; a target
 * without one is crawled once and judged by each date's rules.
 */
async function verifyAcrossDates(
  context: CommandContext,
  parsed: Parsed,
  dates: readonly TimelineDate[],
  contract: Contract,
): Promise<number> {
  const how = basisOf(parsed);
  const shared = createMemo();
  const runs: DatedRun[] = [];
  const data = parsed.target === undefined ? dataFlag(parsed.flags, 1) : undefined;
  const progress = parsed.reporter === "pretty" || parsed.output !== undefined;
  for (const date of dates) {
    if (context.signal.aborted) break;
    const at = date.day;
    let sandbox: RunningSandbox | undefined;
    try {
      sandbox = await embeddedSandbox(parsed, at, contract, data);
      const options = verifyOptions({ ...parsed, at }, sandbox);
      const run = await runVerify(options, allChecks(), {
        contract,
        signal: context.signal,
        ...(sandbox === undefined && options.stateUrl === undefined
          ? { memo: sharingMemo(shared, SHARED_KEYS) }
          : {}),
        ...(sandbox === undefined && options.stateUrl !== undefined ? { serviceDay: at } : {}),
      });
      runs.push({ date, run });
      if (progress) write(context.stderr, `${at} (${date.label}): ${prettyCounts(run.summary)}\n`);
    } finally {
      await sandbox?.close();
    }
  }
  // With --output the report goes to the file and the terminal shows the pretty one.
  if (parsed.output !== undefined)
    writeOutput(parsed.output, formatTimelineReport(runs, how, contract, parsed.reporter));
  const shown = parsed.output === undefined ? parsed.reporter : "pretty";
  write(context.stdout, formatTimelineReport(runs, how, contract, shown, { color: colorOf(context) }));
  if (context.signal.aborted) return 2;
  return runs.every(({ run }) => exitCodeOf(run.summary) === 0) && runs.length === dates.length ? 0 : 1;
}

export const verifyCommand: Command = {
  stopsOnSignal: true,
  name: "verify",
  summary: "Verify a provider (default: the embedded sandbox) against the contract",
  help: HELP,
  async run(context) {
    const parsed: Parsed = parse(context);
    // Refused when FILE is not a report assopay wrote there and nobody changed since (`mayReplace`).
    if (parsed.output !== undefined)
      mayReplace(
        parsed.output,
        {},
        { flag: "assopay verify --output", what: "a report", force: parsed.force },
      );
    if (parsed.target === undefined) {
      const given = SANDBOX_ONLY.filter((flag) => parsed.flags.values[flag] !== undefined);
      if (given.length > 0) {
        throw new AssopayError("usage", `assopay verify: --${given[0]} needs --target`, {
          hint: "without --target the embedded sandbox is verified with its own credentials; add --target URL",
        });
      }
    }
    if (parsed.target !== undefined && stringFlag(parsed.flags, "data") !== undefined) {
      throw new AssopayError(
        "usage",
        "assopay verify: --data is the embedded sandbox's data, not --target's",
        {
          hint: "drop --target to verify the embedded sandbox serving your data file",
        },
      );
    }
    const oracleFile = stringFlag(parsed.flags, "oracle");
    if (oracleFile !== undefined && parsed.cassettes.length > 0) {
      throw new AssopayError("usage", "assopay verify: --oracle does not apply to --cassette", {
        hint: "a rerun judges the recorded crawls against the recording; drop --oracle, or run them apart",
      });
    }
    let sandbox: RunningSandbox | undefined;
    try {
      const contract = contractLoader(context)({ shapes: parsed.shapes });
      if (oracleFile !== undefined) parsed.oracle = readOracle(oracleFile, contract);
      const dates = atEachFlag("verify", parsed.flags, contract.timeline);
      if (dates !== undefined) {
        if (parsed.cassettes.length > 0)
          throw new AssopayError("usage", "assopay verify: --at-each does not apply to --cassette", {
            hint: "a replay judges each answer at its own date; use assopay lint --at-each on the cassettes",
          });
        return await verifyAcrossDates(context, parsed, dates, contract);
      }
      sandbox = await embeddedSandbox(parsed, parsed.at, contract);
      const rerun = parsed.cassettes.length > 0 ? rerunOptions(parsed, sandbox) : undefined;
      const options = rerun ?? verifyOptions(parsed, sandbox);
      const live = parsed.reporter === "pretty" || parsed.output !== undefined;
      const color = colorOf(context);
      if (live) write(context.stdout, `${verifyHeader(options)}\n\n`);
      const onOutcome = (outcome: Finding) => {
        if (live) write(context.stdout, `${prettyCaseLine(outcome, { color })}\n`);
      };
      const report = rerun
        ? await runRerun(rerun, {
            // The contract of --shapes: re-sent sessions are judged by the shapes asked, as the checks are.
            contract,
            signal: context.signal,
            onOutcome,
            onNote: (note) => write(context.stderr, `warning: ${note}\n`),
          })
        : await runVerify(options as VerifyOptions, allChecks(), {
            contract,
            stderr: context.stderr,
            signal: context.signal,
            onOutcome,
          });
      if (live) {
        const model = verifyReport(report);
        write(
          context.stdout,
          `${[...prettyFailures(model, { color }), "", prettySummary(model)].join("\n")}\n`,
        );
      }
      const text = () => formatReport(report, parsed.reporter, { color: false }, contract.rules);
      if (parsed.output !== undefined) writeOutput(parsed.output, text());
      else if (!live) write(context.stdout, text());
      if (context.signal.aborted) return 2;
      return exitCodeOf(report.summary);
    } finally {
      await sandbox?.close();
    }
  },
};
