import { writeFileSync } from "node:fs";
import type { Writable } from "node:stream";
import { type IsoDay, parseIsoDay, todayIso } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import type { BrokerSource } from "../../specs/pact/child-protocol.js";
import { formatReport, REPORTERS, type ReporterName } from "../../specs/report/index.js";
import { formatFailures, formatHeader, formatOutcomeLine, formatSummary } from "../../specs/report/pretty.js";
import { normalizeTarget, resolveOptions, type VerifyOptions } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { CHECK_GROUPS, exitCodeOf, type PlannedPolicy } from "../../specs/runner/types.js";
import type { Command, CommandContext } from "../command.js";
import { choiceFlag, type FlagSpec, listFlag, type ParsedFlags, parseFlags, stringFlag } from "../flags.js";
import { PUBLISH_FLAGS, PUBLISH_HELP, publishOptions } from "./verify-publish.js";

const HELP = `assopay verify: judge a provider (default: the embedded sandbox) against the contract

Usage:
  assopay verify [--target URL] [--at YYYY-MM-DD]
                 [--client-id ID --client-secret S] [--admin-client-id ID --admin-client-secret S]
                 [--organization SLUG --form-type T --form-slug S] [--state-url URL]
                 [--only GROUP...] [--planned fail|warn] [--reporter pretty|json|junit] [--output FILE]

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
  --organization SLUG        Organization whose listings are read.       env ASSOPAY_ORG
  --form-type T              Form type (Event, Membership, Donation…).    env ASSOPAY_FORM_TYPE
  --form-slug S              Form slug.                                   env ASSOPAY_FORM_SLUG
  --state-url URL            Provider-state setup URL (Pact convention, POST {state, params, action}).
                             env ASSOPAY_STATE_URL. Without it, checks that need states are skipped.

What to judge:
  --at YYYY-MM-DD            Judge the rules in force at that date (default: today). env ASSOPAY_AT
  --only GROUP...            Run only these groups or check ids (repeat, or separate with commas):
                             ${CHECK_GROUPS.join(", ")}
  --planned fail|warn        A failure resting only on a planned timeline entry (count removal):
                             fail (default) or warn.

Pact Broker:
${PUBLISH_HELP}
Reports:
  --reporter pretty|json|junit   Terminal text (default), JSON, or JUnit XML (one test case per check).
  --output FILE              Write the report to FILE (the terminal then shows the pretty lines).
  -h, --help                 This text.

Exit codes: 0 every rule holds (skips and warnings allowed), 1 a rule is broken (or a check could
not run), 2 bad usage, refused credentials or an unreachable target.

Examples:
  assopay verify                                      # the embedded sandbox, today
  assopay verify --at 2025-06-29 --only versions      # just before the v3 switch-off
  assopay verify --target https://api.helloasso-sandbox.com --client-id … --client-secret … \\
    --organization my-asso --form-type Event --form-slug gala --reporter junit --output verify.xml
`;

const FLAGS: FlagSpec = {
  target: { type: "string" },
  at: { type: "string" },
  "client-id": { type: "string" },
  "client-secret": { type: "string" },
  "admin-client-id": { type: "string" },
  "admin-client-secret": { type: "string" },
  organization: { type: "string" },
  "form-type": { type: "string" },
  "form-slug": { type: "string" },
  "state-url": { type: "string" },
  only: { type: "string", multiple: true },
  planned: { type: "string" },
  reporter: { type: "string" },
  output: { type: "string" },
  ...PUBLISH_FLAGS,
};

const SANDBOX_ONLY = [
  "client-id",
  "client-secret",
  "admin-client-id",
  "admin-client-secret",
  "organization",
  "form-type",
  "form-slug",
  "state-url",
];

interface Parsed {
  target: string | undefined;
  at: IsoDay;
  flags: ParsedFlags;
  env: CommandContext["env"];
  only: string[];
  planned: PlannedPolicy;
  reporter: ReporterName;
  output: string | undefined;
  pactBroker: BrokerSource | undefined;
}

function parse(context: CommandContext): Parsed {
  const flags = parseFlags("verify", context.argv, FLAGS, true);
  const only = listFlag(flags, "only");
  if (flags.positionals.length > 0 && only.length === 0) {
    throw new AssopayError("usage", `assopay verify: unexpected argument "${flags.positionals[0]}"`, {
      hint: "run 'assopay verify --help'",
    });
  }
  const env = context.env;
  const atText = stringFlag(flags, "at", { vars: env, name: "ASSOPAY_AT" });
  return {
    target: stringFlag(flags, "target", { vars: env, name: "ASSOPAY_TARGET" }),
    at: atText === undefined ? todayIso() : parseIsoDay(atText),
    flags,
    env,
    only: [...only, ...flags.positionals],
    planned: choiceFlag("verify", "planned", stringFlag(flags, "planned"), ["fail", "warn"] as const, "fail"),
    reporter: choiceFlag("verify", "reporter", stringFlag(flags, "reporter"), REPORTERS, "pretty"),
    output: stringFlag(flags, "output"),
    pactBroker: publishOptions(flags, env),
  };
}

/** Options for a target given by the user: every missing setting is named with its environment variable. */
function targetOptions(parsed: Parsed, target: string): VerifyOptions {
  const { flags, env } = parsed;
  normalizeTarget(target);
  const read = (flag: string, name: string) => stringFlag(flags, flag, { vars: env, name });
  const required: [string, string][] = [
    ["client-id", "ASSOPAY_CLIENT_ID"],
    ["client-secret", "ASSOPAY_CLIENT_SECRET"],
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
  const adminId = read("admin-client-id", "ASSOPAY_ADMIN_CLIENT_ID");
  const adminSecret = read("admin-client-secret", "ASSOPAY_ADMIN_CLIENT_SECRET");
  if ((adminId === undefined) !== (adminSecret === undefined)) {
    throw new AssopayError(
      "usage",
      "assopay verify: give both --admin-client-id and --admin-client-secret, or neither",
    );
  }
  return resolveOptions({
    target,
    at: parsed.at,
    reader: {
      clientId: read("client-id", "ASSOPAY_CLIENT_ID") ?? "",
      clientSecret: read("client-secret", "ASSOPAY_CLIENT_SECRET") ?? "",
    },
    admin: adminId && adminSecret ? { clientId: adminId, clientSecret: adminSecret } : undefined,
    organizationSlug: read("organization", "ASSOPAY_ORG") ?? "",
    formType: read("form-type", "ASSOPAY_FORM_TYPE") ?? "",
    formSlug: read("form-slug", "ASSOPAY_FORM_SLUG") ?? "",
    stateUrl: read("state-url", "ASSOPAY_STATE_URL"),
    only: parsed.only,
    planned: parsed.planned,
    pactBroker: parsed.pactBroker,
  });
}

/** Options for the embedded sandbox: its own credentials, names and state URL. */
function sandboxOptions(parsed: Parsed, sandbox: RunningSandbox): VerifyOptions {
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
  });
}

function write(stream: Writable, text: string) {
  stream.write(text);
}

export const verifyCommand: Command = {
  name: "verify",
  summary: "Verify a provider (default: the embedded sandbox) against the contract",
  help: HELP,
  async run(context) {
    const parsed = parse(context);
    if (parsed.target === undefined) {
      const given = SANDBOX_ONLY.filter((flag) => parsed.flags.values[flag] !== undefined);
      if (given.length > 0) {
        throw new AssopayError("usage", `assopay verify: --${given[0]} needs --target`, {
          hint: "without --target the embedded sandbox is verified with its own credentials; add --target URL",
        });
      }
    }
    let sandbox: RunningSandbox | undefined;
    try {
      if (parsed.target === undefined) sandbox = await startSandbox({ port: 0, at: parsed.at });
      const options = sandbox ? sandboxOptions(parsed, sandbox) : targetOptions(parsed, parsed.target ?? "");
      const live = parsed.reporter === "pretty" || parsed.output !== undefined;
      const color =
        (context.stdout as Writable & { isTTY?: boolean }).isTTY === true && !context.env.NO_COLOR;
      if (live) write(context.stdout, `${formatHeader(options)}\n\n`);
      const report = await runVerify(options, allChecks(), {
        stderr: context.stderr,
        signal: context.signal,
        onOutcome: (outcome) => {
          if (live) write(context.stdout, `${formatOutcomeLine(outcome, { color })}\n`);
        },
      });
      if (live) {
        write(
          context.stdout,
          `${[...formatFailures(report, { color }), "", formatSummary(report)].join("\n")}\n`,
        );
      }
      if (parsed.output !== undefined) {
        try {
          writeFileSync(parsed.output, formatReport(report, parsed.reporter));
        } catch (error) {
          throw new AssopayError(
            "bad-input",
            `cannot write the report to ${parsed.output}: ${(error as Error).message}`,
            {
              hint: "check that the folder exists and is writable",
            },
          );
        }
      } else if (!live) {
        write(context.stdout, formatReport(report, parsed.reporter));
      }
      if (context.signal.aborted) return 2;
      return exitCodeOf(report.summary);
    } finally {
      await sandbox?.close();
    }
  },
};
