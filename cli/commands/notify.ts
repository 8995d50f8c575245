import { loadConsumerRules } from "../../contracts/consumer-rules.js";
import type { Contract } from "../../contracts/index.js";
import { AssopayError } from "../../core/errors.js";
import { redactSecretText } from "../../core/secrets/text.js";
import type { ApiAnswer, ReconcileApi } from "../../notify/api.js";
import { NOTIFY_TIMEOUT, type RecordedNotification } from "../../notify/options.js";
import { formatNotifyReport } from "../../notify/report/format.js";
import { runNotify } from "../../notify/run.js";
import { bodyBytes } from "../../proxy/cassette/body.js";
import { loadCassette } from "../../proxy/load-cassette.js";
import { DEFAULT_REPORTER, parseReporter, REPORTER_CHOICE } from "../../report/index.js";
import { credentialsEnv, startSandbox } from "../../sandbox/index.js";
import { type Command, contractLoader } from "../command.js";
import { colorOf, listFlag, parseFlags, secondsOf, splitCommand, stringFlag } from "../flags.js";

const HELP = `assopay notify: send a battery of notifications to a webhook receiver and judge its answers

Usage: assopay notify --to URL (--key KEY | --url-secret SECRET) [--types TYPE...] [--cassette FILE]
                      [--reporter ${REPORTER_CHOICE}] [--timeout SECONDS] [--strict] [-- <command> [args...]]

Two kinds of receivers, as the service sets them up:
  signed (partners)    --key KEY: x-ha-signature is the lowercase hex HMAC-SHA256 of the raw body, keyed
                       with KEY (the notification URL's signatureKey)
  unsigned             --url-secret SECRET: the part of --to (a path segment, a query value) only the
  (associations)       service knows. Every notification naming a payment or an order must be read
                       through the API (GET /v5/payments/{id} or /v5/orders/{id}) before a 2xx, so the
                       receiver runs as a command after --, against an API notify serves it (a sandbox)

Cases, sent one at a time:
  signed:<Type>       a correctly signed notification of each type                    expects 2xx
  unsigned:<Type>     unsigned, at the URL with its secret, of each type              expects 2xx after a read
  unknown-type        a notification of a future type                                 expects 2xx
  added-field         a Payment notification with fields never seen (added change)    expects 2xx
  raw:spaced          raw bytes with extra spaces, signed over those bytes            expects 2xx
  raw:escaped         escaped unicode and slashes (\\u00e9, \\/), as the service         expects 2xx
  raw:reordered       keys in another order                                           expects 2xx
  uppercase-hex       the right signature in uppercase hex                            reported only
  forged:*            signed: bad signature, another key, no or empty header,
                      body altered after signing; with --url-secret: the secret
                      wrong or missing from the URL                                   expects 4xx
  forged:unknown-payment, forged:contradicted-state (unsigned): a payment the API
                      does not know, a state the API contradicts                      2xx after a read, or 4xx
  duplicate           the same notification twice                                     expects 2xx twice
  recorded:<id>       with --cassette: each recorded notification, in order, as
                      recorded (redacted), re-signed with KEY; instead of the above   expects 2xx

Every case judges a rule of the seed or of the service (an error when broken): a 2xx without the API
read fails notify.reconciles; a refused redelivery fails notify.idempotent (the service sends it again
and again); an answer later than the service's wait (--timeout) fails the case as too slow.
uppercase-hex (notify.signature-case) is reported only.

The command (no shell) gets the port of --to as PORT and the API as ASSOPAY_BASE_URL (token at
/oauth2/token), ASSOPAY_API_URL (…/v5), ASSOPAY_TOKEN_URL, ASSOPAY_ADMIN_CLIENT_ID and
ASSOPAY_ADMIN_CLIENT_SECRET (a client with organization_admin, which reading payments and orders needs),
ASSOPAY_CLIENT_ID, ASSOPAY_CLIENT_SECRET (a reader), ASSOPAY_ORG, ASSOPAY_FORM_TYPE, ASSOPAY_FORM_SLUG.
notify waits until something listens at --to, sends, then stops it. Its output goes to stderr.

Flags:
  --to URL             the receiver (http or https; not on a port fetch refuses, such as 6000)
  --key KEY            its signing key (default: $ASSOPAY_SIGNATURE_KEY)
  --url-secret SECRET  the secret part of --to, for a receiver of unsigned notifications
  --types TYPE         send only these types (repeat, or separate with commas; default: all)
  --cassette FILE      send the notifications a recorded session received (assopay record), in order
  --reporter NAME      ${REPORTER_CHOICE} (default ${DEFAULT_REPORTER}), written to stdout
  --timeout SECONDS    the service's wait for each answer (default ${NOTIFY_TIMEOUT.example}; fractions allowed)
  --strict             robustness advice fails the run too
  -h, --help           this text

Exit codes: 0 every case answered as it should, 1 a case failed, 2 bad usage or nothing listens at URL.

Examples:
  assopay notify --to http://127.0.0.1:3000/webhooks/helloasso --key "$HA_SIGNATURE_KEY"
  assopay notify --to http://127.0.0.1:3000/hook/s3cr3t --url-secret s3cr3t -- node receiver.mjs
  assopay notify --to http://127.0.0.1:3000/hooks --key "$KEY" --cassette recordings/session.yaml
  assopay notify --to https://staging.example.org/hooks --types Order,Payment --reporter junit > notify.xml
`;

/**
 * A sandbox as the API a receiver reconciles against, with the log of what it answered.
 *
 * @example
 * const api = await sandboxApi(loadContract()); // … runNotify({ …, api }) … await api.close();
 */
export async function sandboxApi(contract: Contract): Promise<ReconcileApi & { close(): Promise<void> }> {
  const answers: ApiAnswer[] = [];
  const sandbox = await startSandbox({ contract, onAnswer: (a) => answers.push(a) });
  return {
    url: sandbox.url,
    client: sandbox.credentials.admin,
    organizationSlug: sandbox.credentials.organizationSlug,
    env: credentialsEnv(sandbox.credentials),
    answered: () => answers,
    close: sandbox.close,
  };
}

/** The notifications a cassette holds, in recording order, as their redacted bytes. */
export async function recordedNotifications(file: string): Promise<RecordedNotification[]> {
  const cassette = await loadCassette(file);
  const recorded = cassette.interactions
    .filter((i) => i.notification !== undefined)
    .map((i) => ({ id: i.id, body: bodyBytes(i.request.body) }));
  if (recorded.length === 0) {
    throw new AssopayError("usage", `assopay notify: ${file} holds no notification`, {
      hint: "record a session whose notification URL is the recorder's /__assopay/notifications (docs/cassettes.md, Notifications)",
    });
  }
  return recorded;
}

export const notifyCommand: Command = {
  name: "notify",
  summary: "Send a battery of notifications to a webhook receiver and judge its answers",
  help: HELP,
  async run(context) {
    const { own, command } = splitCommand(context.argv);
    const flags = parseFlags(
      "notify",
      own,
      "to= key= url-secret= types* cassette= reporter= timeout= strict",
    );
    const to = stringFlag(flags, "to");
    if (to === undefined) {
      throw new AssopayError("usage", "assopay notify: --to URL is required", {
        hint: "for example --to http://127.0.0.1:3000/webhooks/helloasso",
      });
    }
    const key = stringFlag(flags, "key", { vars: context.env, name: "ASSOPAY_SIGNATURE_KEY" });
    const urlSecret = stringFlag(flags, "url-secret");
    const timeoutSeconds = secondsOf(flags, "timeout", NOTIFY_TIMEOUT);
    const reporter = parseReporter("notify", stringFlag(flags, "reporter"));
    const cassette = stringFlag(flags, "cassette");
    const recorded = cassette === undefined ? undefined : await recordedNotifications(cassette);
    const rules = loadConsumerRules();
    const contract = contractLoader(context)();
    const api = command ? await sandboxApi(contract) : undefined;
    try {
      const report = await runNotify({
        to,
        key,
        urlSecret,
        api,
        command,
        recorded,
        env: context.env,
        // The receiver's own output is relayed through the one redactor (it may log its secret).
        onOutput: (line) => context.stderr.write(`[receiver] ${redactSecretText(line)}\n`),
        types: listFlag(flags, "types"),
        timeoutSeconds,
        rules,
        strict: flags.values.strict === true,
        contract,
      });
      context.stdout.write(formatNotifyReport(report, rules, reporter, { color: colorOf(context) }));
      return report.passed ? 0 : 1;
    } finally {
      await api?.close();
    }
  },
};
