import { writeFileSync } from "node:fs";
import type { Writable } from "node:stream";
import type { RouteCatalogue } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import { WHOLE_PLACEHOLDER } from "../../core/secrets/placeholder.js";
import { loadCassette } from "../../proxy/index.js";
import { buildSandboxData } from "../../sandbox/data/build-data.js";
import { type CheckedDataFile, parseDataFile, readDataFile } from "../../sandbox/data/data-file.js";
import { dataFromRecording, type RecordedAnswer } from "../../sandbox/data/from-recording.js";
import type { DeclaredClient, SandboxData } from "../../sandbox/data/model.js";
import { printDataFile } from "../../sandbox/data/print-data.js";
import { type FaultName, faults, isFaultName } from "../../sandbox/faults.js";
import {
  DEFAULT_ENTRIES,
  DEFAULT_SEED,
  type RunningSandbox,
  type Shapes,
  startSandbox,
} from "../../sandbox/index.js";
import { type Command, type CommandContext, contractLoader, untilAborted } from "../command.js";
import {
  allowHostsFlag,
  dateFlag,
  listFlag,
  type ParsedFlags,
  parseFlags,
  portFlag,
  seedFlag,
  shapesFlag,
  stringFlag,
  wholeFlag,
} from "../flags.js";

/** The port `assopay sandbox` listens on when `--port` is not given. */
export const DEFAULT_SANDBOX_PORT = 4545;

const HELP = `assopay sandbox: run the local sandbox service, with a clock and named faults

Usage: assopay sandbox [flags]

A faithful local stand-in for the association payment API v5 (and v3 until its switch-off): token
endpoint, the six listing routes and the form items listing with seeded data, public forms, order
detail with attached files, partner information and notification URLs, signed notifications and a
hosted checkout page. Every rule (routes, schemas, dated changes) is read from contracts/.

Flags:
  --port N                 port to listen on (default ${DEFAULT_SANDBOX_PORT}; 0 takes any free port)
  --host ADDRESS           address to bind (default 127.0.0.1)
  --at YYYY-MM-DD          the sandbox's date for every dated rule (default: today); the clock starts
                           at 10:00 UTC that day and can be moved with POST /_clock
  --seed N                 seed of the generated data, secrets and keys (default ${DEFAULT_SEED})
  --entries N              entries of the ready-made form, 0 to 1000000 (default ${DEFAULT_ENTRIES})
  --fault NAME             break exactly one rule (see --list-faults)
  --growing                a legal variant: a live listing, where every first page of a listing
                           (whatever its query) and the third page of each crawl of a form is served
                           after one more paid order (tokens stay cursor-stable)
  --shapes seed|document   where the seed and the provider's document disagree, serve the seed's shape
                           (default) or the document's (docs/contracts.md, "Known divergences"): with
                           seed, an items-listing entry's amount is {total, vat}; with document, the
                           item's integer cents. The startup line (and --json's "shapes") says which.
  --timeline FILE          your own timeline of dated changes (default: contracts/timeline.yaml)
  --notification-types FILE  your own notification types (default: contracts/notification-types.yaml)
  --data FILE.yaml         serve your own organizations, forms (tiers, custom fields, options),
                           orders, payments and clients; the rest is generated (docs/sandbox.md,
                           "Your own data"); every value is checked, a mistake exits 2 with file:line
  --from-cassette FILE     serve the data a recorded session shows (repeatable), statefully; the
                           recorded app's client id is let in with its own secret (or the
                           placeholder the cassette holds; ASSOPAY_CASSETTE_SALT if it was salted)
  --print-data FILE|-      write the data file of --from-cassette (or --data) to FILE or stdout, then
                           exit: edit it and keep it
  --no-hooks               play a provider without our hooks: no provider states, no clock, none of
                           the endpoints below (verify then finds what it needs through the API)
  --notify-any-host        deliver notifications to any registered URL; without it only loopback
                           URLs (127.0.0.1, [::1], localhost) get them, others are logged as skipped
  --allow-host NAME        also answer requests whose Host is NAME (repeatable): a tunnel's or a LAN
                           name. Without it only Host 127.0.0.1, localhost and [::1] is answered
                           (421 otherwise), so a DNS-rebinding web page cannot reach it
  --json                   print one JSON line with the URL and credentials instead of the text
  --list-faults            list the faults and the rule each one breaks, then exit
  -h, --help               show this help

Endpoints of the sandbox itself (no token needed; absent with --no-hooks):
  POST /_states            provider states, Pact convention {state, params, action: setup|teardown}
  GET|POST /_clock         read the clock, or move it: {"advanceMinutes": 16}, {"day": "2025-07-01"}
  GET /_notifications      every notification sent, with attempts and signatures
  POST|GET /_sink          a receiver that accepts notifications and lists what it got
  Their POSTs need content-type: application/json (or the header x-assopay-control: 1) and refuse
  requests from web pages of other sites (403); a Host other than the sandbox's own gets 421.

Examples:
  assopay sandbox --at 2025-06-15
  assopay sandbox --port 0 --json --entries 100000
  assopay sandbox --fault never-ending
  assopay sandbox --data my-forms.yaml
  assopay sandbox --from-cassette session.yaml --print-data my-forms.yaml
  assopay sandbox --list-faults

Stops cleanly on Ctrl-C. Exit codes: 0 stopped normally, 2 bad usage or a bad data file.
See docs/sandbox.md.
`;

/** `--data FILE`: the data it declares, checked (file:line, exit 2), or `undefined` without the flag. */
export function dataFlag(flags: ParsedFlags, seed: number): SandboxData | undefined {
  const file = stringFlag(flags, "data");
  return file === undefined ? undefined : buildSandboxData(readDataFile(file), seed);
}

/**
 * The sandbox's data from `--data FILE` or `--from-cassette FILE…` (one or the other), and `--print-data
 * PATH|-` written. `printed` is true when the data file was printed (the verb then stops there).
 */
async function sandboxDataFlags(
  flags: ParsedFlags,
  seed: number,
  stdout: Writable,
  routes: RouteCatalogue,
): Promise<{ data: SandboxData | undefined; printed: boolean }> {
  // `--from-cassette A.yaml B.yaml`: the files after the flag come as positionals.
  const cassettes = [...listFlag(flags, "from-cassette")];
  if (flags.positionals.length > 0) {
    if (cassettes.length === 0) {
      throw new AssopayError("usage", `assopay sandbox: unexpected argument "${flags.positionals[0]}"`, {
        hint: "run 'assopay sandbox --help'",
      });
    }
    cassettes.push(...flags.positionals);
  }
  const dataFile = stringFlag(flags, "data");
  const printTo = stringFlag(flags, "print-data");
  if (cassettes.length > 0 && dataFile !== undefined) {
    throw new AssopayError("usage", "assopay sandbox: give --data or --from-cassette, not both", {
      hint: "print the recording's data with --print-data FILE, edit it, then run with --data FILE",
    });
  }
  let checked: CheckedDataFile | undefined;
  let text: string | undefined;
  if (cassettes.length > 0) {
    const answers: RecordedAnswer[] = [];
    for (const file of cassettes) {
      const cassette = await loadCassette(file);
      for (const { request, response } of cassette.interactions) {
        const body = response.body && "json" in response.body ? response.body.json : undefined;
        const requestText = request.body && "text" in request.body ? request.body.text : undefined;
        answers.push({
          method: request.method,
          path: request.path,
          status: response.status,
          body,
          ...(requestText === undefined ? {} : { requestText }),
        });
      }
    }
    text = printDataFile(dataFromRecording(answers, routes), cassettes);
    checked = parseDataFile(text, `${cassettes.join(", ")} (the data derived from it)`);
  } else if (dataFile !== undefined) {
    checked = readDataFile(dataFile);
  }
  if (printTo !== undefined) {
    if (!checked) {
      throw new AssopayError("usage", "assopay sandbox: --print-data needs --from-cassette or --data", {
        hint: "for example --from-cassette session.yaml --print-data my-data.yaml",
      });
    }
    const out = text ?? printDataFile(checked.data, [checked.file]);
    if (printTo === "-") stdout.write(out);
    else writeFileSync(printTo, out);
    return { data: undefined, printed: true };
  }
  return { data: checked && buildSandboxData(checked, seed), printed: false };
}

function faultFlag(text: string | undefined): FaultName | undefined {
  if (text === undefined) return undefined;
  if (isFaultName(text)) return text;
  throw new AssopayError("usage", `assopay sandbox: unknown fault "${text}"`, {
    hint: "run 'assopay sandbox --list-faults' to see them",
  });
}

function faultTable(): string {
  const width = Math.max(...faults.map((f) => f.name.length));
  const ruleWidth = Math.max(...faults.map((f) => f.rule.length));
  const rows = faults.map((f) => `  ${f.name.padEnd(width)}  ${f.rule.padEnd(ruleWidth)}  ${f.description}`);
  return [
    `  ${"FAULT".padEnd(width)}  ${"RULE IT BREAKS".padEnd(ruleWidth)}  WHAT IT DOES`,
    ...rows,
    "",
  ].join("\n");
}

/** What each `--shapes` serves where the seed and the document disagree, for the startup line. */
const SHAPES_NOTE: Readonly<Record<Shapes, string>> = {
  seed: "seed (an entry's amount is {total, vat})",
  document: "document (an entry's amount is the item's integer cents)",
};

function banner(
  sandbox: RunningSandbox,
  seed: number,
  fault: FaultName | undefined,
  clients: readonly DeclaredClient[],
): string {
  const c = sandbox.credentials;
  return [
    `assopay sandbox listening on ${sandbox.url}`,
    `  date ${sandbox.at} · seed ${seed} · ${fault ? `fault ${fault}` : "no fault"} · shapes ${SHAPES_NOTE[sandbox.core.shapes]}`,
    "",
    `  token endpoint    POST ${sandbox.url}/oauth2/token (grant_type=client_credentials)`,
    `  admin client      ${c.admin.clientId}  ${c.admin.clientSecret}   (organization_admin)`,
    `  reader client     ${c.reader.clientId}  ${c.reader.clientSecret}   (no right)`,
    ...clients.map(
      (d) =>
        `  declared client   ${d.id}  ${d.secret}   (${d.rights.join(", ") || "no right"}${WHOLE_PLACEHOLDER.test(d.secret) ? "; or the secret it stands for" : ""})`,
    ),
    `  organization      ${c.organizationSlug}`,
    `  form              ${c.formType}/${c.formSlug} (${sandbox.core.store.mainForm.count} entries)`,
    `  listing           GET ${sandbox.url}/v5/organizations/${c.organizationSlug}/forms/${c.formType}/${c.formSlug}/items`,
    ...(sandbox.stateUrl
      ? [`  provider states   POST ${sandbox.stateUrl}`, `  clock             GET|POST ${sandbox.url}/_clock`]
      : ["  hooks             off (no provider states, no clock, no admin endpoints)"]),
    "",
    "Press Ctrl-C to stop.",
    "",
  ].join("\n");
}

async function run(context: CommandContext): Promise<number> {
  const flags = parseFlags(
    "sandbox",
    context.argv,
    `port= host= at= seed= entries= fault= timeline= notification-types= shapes= json list-faults no-hooks
     growing notify-any-host allow-host* data= from-cassette* print-data=`,
    true,
  );
  const json = flags.values.json === true;
  if (flags.values["list-faults"] === true) {
    context.stdout.write(json ? `${JSON.stringify(faults)}\n` : faultTable());
    return 0;
  }
  const atText = stringFlag(flags, "at");
  const at: IsoDay | undefined = dateFlag("sandbox", atText);
  const seed = seedFlag("sandbox", stringFlag(flags, "seed")) ?? DEFAULT_SEED;
  const entries =
    wholeFlag(flags, "entries", { min: 0, max: 1_000_000, example: DEFAULT_ENTRIES }) ?? DEFAULT_ENTRIES;
  const fault = faultFlag(stringFlag(flags, "fault"));
  const timelineFile = stringFlag(flags, "timeline");
  const notificationTypesFile = stringFlag(flags, "notification-types");
  const shapes = shapesFlag("sandbox", flags);
  const contract = contractLoader(context)({
    shapes,
    ...(timelineFile ? { timelineFile } : {}),
    ...(notificationTypesFile ? { notificationTypesFile } : {}),
  });
  const { data, printed } = await sandboxDataFlags(flags, seed, context.stdout, contract.routes);
  if (printed) return 0;
  const sandbox = await startSandbox({
    host: stringFlag(flags, "host") ?? "127.0.0.1",
    port: portFlag("sandbox", stringFlag(flags, "port"), DEFAULT_SANDBOX_PORT),
    seed,
    entries,
    contract,
    shapes,
    ...(at ? { at } : {}),
    ...(fault ? { fault } : {}),
    hooks: flags.values["no-hooks"] !== true,
    growing: flags.values.growing === true,
    allowHosts: allowHostsFlag(flags),
    notifyAnyHost: flags.values["notify-any-host"] === true,
    onNotice: (message) => context.stderr.write(`  ${message}\n`),
    ...(data ? { data } : {}),
    ...(context.env.ASSOPAY_CASSETTE_SALT ? { secretSalt: context.env.ASSOPAY_CASSETTE_SALT } : {}),
  });
  const c = sandbox.credentials;
  context.stdout.write(
    json
      ? `${JSON.stringify({
          url: sandbox.url,
          stateUrl: sandbox.stateUrl ?? null,
          at: sandbox.at,
          entries,
          seed,
          fault: fault ?? null,
          shapes,
          organizationSlug: c.organizationSlug,
          formType: c.formType,
          formSlug: c.formSlug,
          admin: c.admin,
          reader: c.reader,
        })}\n`
      : banner(sandbox, seed, fault, data?.clients ?? []),
  );
  await untilAborted(context.signal);
  await sandbox.close();
  if (!json) context.stderr.write("assopay sandbox stopped\n");
  return 0;
}

export const sandboxCommand: Command = {
  stopsOnSignal: true,
  name: "sandbox",
  summary: "Run the local sandbox service, with a clock and named faults",
  help: HELP,
  run,
};
