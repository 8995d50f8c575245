import { loadConsumerRules } from "../../contracts/consumer-rules.js";
import { AssopayError } from "../../core/errors.js";
import { DEFAULT_NOTIFY_TIMEOUT_SECONDS, NOTIFY_TIMEOUT_LIMIT_SECONDS } from "../../notify/options.js";
import { formatNotifyReport } from "../../notify/report/format.js";
import { runNotify } from "../../notify/run.js";
import { DEFAULT_REPORTER, parseReporter, REPORTER_CHOICE, useColor } from "../../report/index.js";
import { type Command, contractLoader } from "../command.js";
import { listFlag, parseFlags, secondsFlag, stringFlag } from "../flags.js";

const HELP = `assopay notify: send a battery of notifications to a webhook receiver and judge its answers

Usage: assopay notify --to URL --key KEY [--types TYPE...] [--reporter ${REPORTER_CHOICE}] [--timeout SECONDS]
                      [--strict]

Cases, sent one at a time:
  signed:<Type>      a correctly signed notification of each type             expects 2xx
  unknown-type       a correctly signed notification of a future type         expects 2xx
  raw:spaced         raw bytes with extra spaces, signed over those bytes     expects 2xx
  raw:escaped        escaped unicode and slashes (\\u00e9, \\/), as the service  expects 2xx
  raw:reordered      keys in another order                                    expects 2xx
  uppercase-hex      the right signature in uppercase hex                     reported only
  forged:*           bad signature, another key, no or empty header,
                     body altered after signing                               expects 4xx
  duplicate          the same notification twice                              expects 2xx twice
                     (robustness: a warning unless --strict)

Rules: every case judges a rule of the seed (an error when broken), except duplicate
(notify.idempotent: the service retries until it gets a 2xx, a fact beyond the seed, so a warning
unless --strict) and uppercase-hex (notify.signature-case: reported only).

The signature is x-ha-signature: the lowercase hex HMAC-SHA256 of the raw body, keyed with KEY.

Flags:
  --to URL            the receiver (http or https; not on a port fetch refuses, such as 6000)
  --key KEY           its signing key (default: $ASSOPAY_SIGNATURE_KEY)
  --types TYPE        send only these types signed (repeat, or separate with commas; default: all)
  --reporter NAME     ${REPORTER_CHOICE} (default ${DEFAULT_REPORTER}), written to stdout
  --timeout SECONDS   time to wait for each answer (default ${DEFAULT_NOTIFY_TIMEOUT_SECONDS}; fractions allowed)
  --strict            robustness advice (duplicate) fails the run too
  -h, --help          this text

Exit codes: 0 every case answered as it should, 1 a case failed, 2 bad usage or nothing listens at URL.

Examples:
  assopay notify --to http://127.0.0.1:3000/webhooks/helloasso --key "$HA_SIGNATURE_KEY"
  assopay notify --to https://staging.example.org/hooks --types Order,Payment --reporter junit > notify.xml
`;

export const notifyCommand: Command = {
  name: "notify",
  summary: "Send a battery of notifications to a webhook receiver and judge its answers",
  help: HELP,
  async run(context) {
    const flags = parseFlags("notify", context.argv, {
      to: { type: "string" },
      key: { type: "string" },
      types: { type: "string", multiple: true },
      reporter: { type: "string" },
      timeout: { type: "string" },
      strict: { type: "boolean" },
    });
    const to = stringFlag(flags, "to");
    if (to === undefined) {
      throw new AssopayError("usage", "assopay notify: --to URL is required", {
        hint: "for example --to http://127.0.0.1:3000/webhooks/helloasso",
      });
    }
    const key = stringFlag(flags, "key", { vars: context.env, name: "ASSOPAY_SIGNATURE_KEY" });
    if (key === undefined) {
      throw new AssopayError("usage", "assopay notify: --key KEY is required", {
        hint: "pass the notification URL's signatureKey with --key, or set ASSOPAY_SIGNATURE_KEY",
      });
    }
    const timeoutSeconds = secondsFlag(stringFlag(flags, "timeout"), {
      verb: "notify",
      flag: "timeout",
      max: NOTIFY_TIMEOUT_LIMIT_SECONDS,
      example: DEFAULT_NOTIFY_TIMEOUT_SECONDS,
    });
    const reporter = parseReporter("notify", stringFlag(flags, "reporter"));
    const rules = loadConsumerRules();
    const report = await runNotify({
      to,
      key,
      types: listFlag(flags, "types"),
      timeoutSeconds,
      rules,
      strict: flags.values.strict === true,
      contract: contractLoader(context)(),
    });
    const color = useColor(context.stdout as { isTTY?: boolean }, context.env);
    context.stdout.write(formatNotifyReport(report, rules, reporter, { color }));
    return report.passed ? 0 : 1;
  },
};
