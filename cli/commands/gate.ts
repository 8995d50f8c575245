import { loadConsumerRules } from "../../contracts/consumer-rules.js";
import { AssopayError } from "../../core/errors.js";
import { redactSecretText } from "../../core/secrets/text.js";
import { GATE_NUMBERS, type GateOptions } from "../../gate/options.js";
import { formatGateReport, formatGateTimeline } from "../../gate/report/format.js";
import { runGate, runGateAcrossDates } from "../../gate/run.js";
import { SCENARIOS } from "../../gate/scenarios.js";
import { LOGIN_FLAGS } from "../../gate/upstream.js";
import { DEFAULT_REPORTER, parseReporter, REPORTER_CHOICE } from "../../report/index.js";
import { type Command, contractLoader } from "../command.js";
import {
  ALLOW_HOST_HELP,
  allowHostsFlag,
  atEachFlag,
  atEachHelp,
  colorOf,
  dateFlag,
  listFlag,
  parseFlags,
  secondsOf,
  seedFlag,
  shapesFlag,
  splitCommand,
  stringFlag,
  wholeFlag,
} from "../flags.js";
import { dataFlag } from "./sandbox.js";

const width = Math.max(...SCENARIOS.map((s) => s.name.length));

const HELP = `assopay gate: judge an SDK's traffic against the consumer rules

Usage: assopay gate [--sandbox | --cassette PATH... | --upstream URL] [--at YYYY-MM-DD | --at-each timeline|DAY,DAY...]
                    [--scenario NAME...] [--intercept HOST...] [--allow-host NAME...]
                    [--reporter ${REPORTER_CHOICE}] [--max-requests N] [--timeout SECONDS]
                    [--entries N] [--seed N] [--data FILE.yaml] [--shapes seed|document] [--strict]
                    -- <command> [args...]

For each scenario, starts a server (a fresh sandbox, or a replay of cassettes; or takes your running
server) behind a scenario layer, runs <command> (no shell) with these variables set, records every
request it makes and judges them:
  ASSOPAY_BASE_URL      the server (token at /oauth2/token, API under /v5)
  ASSOPAY_API_URL       ASSOPAY_BASE_URL/v5
  ASSOPAY_TOKEN_URL     ASSOPAY_BASE_URL/oauth2/token
  ASSOPAY_CLIENT_ID, ASSOPAY_CLIENT_SECRET              a client that reads
  ASSOPAY_ADMIN_CLIENT_ID, ASSOPAY_ADMIN_CLIENT_SECRET  a client with organization_admin
  ASSOPAY_ORG, ASSOPAY_FORM_TYPE, ASSOPAY_FORM_SLUG     a form whose listings have entries
  ASSOPAY_AT, ASSOPAY_SCENARIO                          the server's date and the scenario

Scenarios (default: all):
${SCENARIOS.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`).join("\n")}

Flags:
  --sandbox             a fresh sandbox per scenario (the default)
  --cassette PATH       replay these cassettes instead (repeat for several)
  --upstream URL        stand in front of this running server instead (the provider's sandbox, a mock,
                        a replay run elsewhere): its root, token at /oauth2/token, API under /v5. The
                        command logs in with the ASSOPAY_* variables you give, or these flags:
                        --client-id ID --client-secret S --organization SLUG --form-type TYPE
                        --form-slug SLUG [--admin-client-id ID --admin-client-secret S] (the admin
                        defaults to the reader). The dated scenarios and growing-listing are left out
                        (its date and its data are its own)
  --at YYYY-MM-DD       the date of the undated scenarios (default: today)
${atEachHelp(24)}
                        (the undated scenarios at each date: against the sandbox, a sandbox at that
                        date; against --cassette, one run per scenario judged by each date's rules)
  --scenario NAME       run only these scenarios (repeat, or separate with commas)
  --intercept HOST      the command calls HOST by a hard-coded https URL (repeatable, or
                        comma-separated): its Node requests to HOST (fetch, http, https, axios …) reach
                        the layer through the preload assopay-contract/intercept, set in its
                        NODE_OPTIONS with ASSOPAY_INTERCEPT_HOSTS and ASSOPAY_INTERCEPT_TARGET
${ALLOW_HOST_HELP}
  --reporter NAME       ${REPORTER_CHOICE} (default ${DEFAULT_REPORTER}), written to stdout
  --max-requests N      requests allowed per scenario (default ${GATE_NUMBERS.maxRequests.example}); then the command is stopped
  --timeout SECONDS     time allowed per scenario (default ${GATE_NUMBERS.timeoutSeconds.example}; fractions allowed); then stopped
  --entries N           entries of the sandbox's form (default ${GATE_NUMBERS.entries.example})
  --seed N              seed of the sandbox's data and of the gate's tokens (default 1)
  --data FILE.yaml      the sandbox serves your own organizations, forms, orders (docs/sandbox.md,
                        "Your own data"); the command gets the file's main form in every scenario
  --shapes seed|document  where the seed and the provider's document disagree, the sandbox serves
                        the seed's shape (default) or the document's (an item's amount in integer
                        cents, as the live service and apps written against it have it)
  --strict              robustness advice fails the run too (see "Rules" below)
  -h, --help            this text

Rules (contracts/consumer-rules.yaml; docs/gate.md says what each judges):
  errors, where a rule of the seed is broken (the run fails):
    crawl.first-call-without-token, crawl.token-echoed, crawl.no-call-after-empty-page,
    crawl.reaches-empty-page, crawl.no-invented-token, versions.no-v3-after-switch-off (advice
    before the switch-off), retry.waits-retry-after, retry.resumes-with-token, run.bounded,
    run.command-succeeds, run.traffic-seen
  robustness, a warning unless --strict (surviving the real service, beyond the seed):
    auth.fresh-token-after-401, retry.survives-refusal (giving up after a 429, 5xx or reset: the
    seed allows it as a failure of the call; the command's exit code and stderr are shown)
  advice, reported only (legal behaviour worth knowing about):
    counts.no-withcount-after-removal (withCount=true has no effect then), counts.withcount-when-needed

The command's own output goes to stderr, each line prefixed with its scenario.
Exit codes: 0 every rule holds in every scenario, 1 a rule is broken (or the command failed, looped or
made no listing call), 2 bad usage or bad input.

Examples:
  assopay gate -- node scripts/crawl-all.mjs
  assopay gate --scenario tricky-tokens,token-expiry -- npm run test:live
  assopay gate --reporter junit --max-requests 300 -- python -m mysdk.examples.crawl > gate.xml
  assopay gate --cassette recordings/crawl.yaml --scenario uniform -- node scripts/crawl-all.mjs
  assopay gate --at-each timeline --scenario uniform --reporter html -- node crawl.mjs > gate.html
  assopay gate --upstream http://127.0.0.1:4010 --client-id … --client-secret … --organization my-org \
               --form-type Event --form-slug gala -- node crawl.mjs
  assopay gate --intercept api.helloasso.com --shapes document -- node app.js
`;

export const gateCommand: Command = {
  stopsOnSignal: true,
  name: "gate",
  summary: "Judge an SDK's traffic against the consumer rules",
  help: HELP,
  async run(context) {
    // Without `--` there is no command: the options' resolver refuses it ("no command to run").
    const { own, command = [] } = splitCommand(context.argv);
    const flags = parseFlags(
      "gate",
      own,
      `sandbox cassette* at= scenario* reporter= max-requests= timeout= entries= seed= strict upstream=
       ${Object.keys(LOGIN_FLAGS).join("= ")}= intercept* shapes= allow-host* data= at-each=`,
    );
    const cassettes = listFlag(flags, "cassette");
    const upstream = stringFlag(flags, "upstream");
    if (flags.values.sandbox === true && (cassettes.length > 0 || upstream !== undefined)) {
      const other = upstream === undefined ? "--cassette" : "--upstream";
      throw new AssopayError("usage", `assopay gate: --sandbox and ${other} exclude each other`, {
        hint: `drop --sandbox to use ${other}`,
      });
    }
    // The login flags of --upstream are the variables the command gets.
    const login = Object.entries(LOGIN_FLAGS).flatMap(([flag, variable]) => {
      const value = stringFlag(flags, flag);
      return value === undefined ? [] : [[variable, value] as const];
    });
    const reporter = parseReporter("gate", stringFlag(flags, "reporter"));
    const rules = loadConsumerRules();
    const at = dateFlag("gate", stringFlag(flags, "at"));
    const maxRequests = wholeFlag(flags, "max-requests", GATE_NUMBERS.maxRequests);
    const timeoutSeconds = secondsOf(flags, "timeout", GATE_NUMBERS.timeoutSeconds);
    const entries = wholeFlag(flags, "entries", GATE_NUMBERS.entries);
    const seed = seedFlag("gate", stringFlag(flags, "seed"));
    const data = dataFlag(flags, seed ?? 1);
    const contract = contractLoader(context)();
    const dates = atEachFlag("gate", flags, contract.timeline);
    const options: GateOptions = {
      command,
      cassettes,
      upstream,
      intercept: listFlag(flags, "intercept").flatMap((list) => list.split(",")),
      allowHosts: allowHostsFlag(flags),
      ...(stringFlag(flags, "shapes") === undefined ? {} : { shapes: shapesFlag("gate", flags) }),
      scenarios: listFlag(flags, "scenario"),
      env: { ...context.env, ...Object.fromEntries(login) },
      signal: context.signal,
      rules,
      // The command's own output is relayed through the one redactor too (an SDK may log its secret).
      onOutput: (line, scenario) => context.stderr.write(`[${scenario}] ${redactSecretText(line)}\n`),
      at,
      maxRequests,
      timeoutSeconds,
      entries,
      seed,
      data,
      strict: flags.values.strict === true,
      contract,
    };
    const color = colorOf(context);
    if (dates !== undefined) {
      const timeline = await runGateAcrossDates(options, dates);
      context.stdout.write(formatGateTimeline(timeline, rules, contract.timeline, reporter, { color }));
      return timeline.runs.every(({ report }) => report.passed) ? 0 : 1;
    }
    const report = await runGate(options);
    context.stdout.write(formatGateReport(report, rules, reporter, { color }));
    return report.passed ? 0 : 1;
  },
};
