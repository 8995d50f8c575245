import { AssopayError } from "../../core/errors.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { RECORD_MODES, type RecordMode } from "../../proxy/record/options.js";
import { startRecorder } from "../../proxy/record/server.js";
import type { Command, CommandContext } from "../command.js";
import { choiceFlag, parseFlags, portFlag, stringFlag } from "../flags.js";
import { INTERCEPT_FLAGS, INTERCEPT_HELP, interceptFlags, printInterception } from "./intercept-flags.js";

const DEFAULT_PORT = 8470;

const HELP = `assopay record: record traffic through a proxy into a YAML cassette

Usage: assopay record --upstream URL --cassette PATH [--port N] [--mode once|new|all] [--redact-pii]
                      [--notify-forward URL] [--notify-path PATH] [--max-body BYTES] [--timeout MS] [--quiet]
                      [--intercept HOST]... [--ca-dir DIR] [--json]

Starts a reverse proxy on 127.0.0.1 that forwards every request to the one upstream (never anywhere
else: absolute URLs and CONNECT are refused) and appends each finished exchange to the cassette, one
YAML document per interaction. Responses stream through as they arrive. Secrets (Authorization,
cookies, client_secret, access_token, refresh_token, signatureKey, x-ha-signature) are replaced by
stable placeholders before anything is written. See docs/cassettes.md for the format.

Notifications: register <proxy>/__assopay/notifications (printed at start) as your notification URL;
each notification is recorded with whether its x-ha-signature verified, and relayed to --notify-forward.

Flags:
  --upstream URL        the service to forward to, e.g. https://api.helloasso-sandbox.com (required,
                        unless --intercept is given: then https://<first host>)
  --cassette PATH       the cassette file to write (required)
  --port N              port to listen on (default ${DEFAULT_PORT}; 0 takes any free port)
  --mode MODE           once: record only if the cassette does not exist, else serve it and refuse
                              unseen requests (default)
                        new:  serve what the cassette holds, forward and append the rest
                        all:  record everything again (the old file is kept as PATH.previous)
  --redact-pii          replace payer and user names and e-mails with stable fakes of the same shape
  --notify-forward URL  your own notification receiver; its answer goes back to the service
  --notify-path PATH    the proxy path that takes notifications (default /__assopay/notifications)
  --max-body BYTES      largest request or response body recorded (default 52428800, 50 MB)
  --timeout MS          how long the upstream may stay silent before a 504 (default 30000)
  --quiet               print only problems, not every recorded exchange
${INTERCEPT_HELP}
  -h, --help            this text

Environment:
  ASSOPAY_CASSETTE_SALT  a salt for the secret placeholders (replay needs the same one)

Stops on Ctrl-C (SIGINT) or SIGTERM after writing every finished exchange.
Exit codes: 0 stopped cleanly, 2 bad usage, the cassette is locked by another recorder, or it is malformed.

Examples:
  assopay record --upstream https://api.helloasso-sandbox.com --cassette recordings/crawl.yaml
  assopay record --upstream http://127.0.0.1:8080 --cassette rec.yaml --mode new --redact-pii --port 0
  assopay record --intercept api.helloasso.com --cassette rec.yaml
`;

function required(flags: ReturnType<typeof parseFlags>, name: string, example: string): string {
  const value = stringFlag(flags, name);
  if (value === undefined || value === "") {
    throw new AssopayError("usage", `assopay record: --${name} is required`, {
      hint: `for example --${name} ${example}`,
    });
  }
  return value;
}

function integerFlag(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    throw new AssopayError(
      "usage",
      `assopay record: --${name} must be a positive whole number, got "${text}"`,
      {
        hint: `run 'assopay record --help'`,
      },
    );
  }
  return value;
}

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

export const recordCommand: Command = {
  name: "record",
  summary: "Record traffic through a proxy into a YAML cassette",
  help: HELP,
  async run(context: CommandContext): Promise<number> {
    const flags = parseFlags("record", context.argv, {
      upstream: { type: "string" },
      cassette: { type: "string" },
      port: { type: "string" },
      mode: { type: "string" },
      "redact-pii": { type: "boolean" },
      "notify-forward": { type: "string" },
      "notify-path": { type: "string" },
      "max-body": { type: "string" },
      timeout: { type: "string" },
      quiet: { type: "boolean" },
      ...INTERCEPT_FLAGS,
    });
    const intercepting = interceptFlags(flags, context.env);
    const first = intercepting.intercept[0];
    const upstream =
      stringFlag(flags, "upstream") || first === undefined
        ? required(flags, "upstream", "https://api.helloasso-sandbox.com")
        : `https://${first.trim()}`;
    const cassette = required(flags, "cassette", "recordings/session.yaml");
    const mode: RecordMode = choiceFlag("record", "mode", stringFlag(flags, "mode"), RECORD_MODES, "once");
    const quiet = flags.values.quiet === true;
    const print = (event: ProxyEvent) => {
      if (quiet && (event.kind === "recorded" || event.kind === "notification")) return;
      context.stderr.write(`  ${event.message}\n`);
    };
    const recorder = await startRecorder({
      upstream,
      cassette,
      port: portFlag("record", stringFlag(flags, "port"), DEFAULT_PORT),
      mode,
      redactPii: flags.values["redact-pii"] === true,
      notifyForward: stringFlag(flags, "notify-forward"),
      notificationPath: stringFlag(flags, "notify-path"),
      maxBodyBytes: integerFlag("max-body", stringFlag(flags, "max-body")),
      upstreamTimeoutMs: integerFlag("timeout", stringFlag(flags, "timeout")),
      secretSalt: context.env.ASSOPAY_CASSETTE_SALT,
      reportExchanges: !quiet,
      onEvent: print,
      ...intercepting,
    });
    const doing =
      recorder.state === "recording"
        ? `recording to ${recorder.cassette} (mode ${mode})`
        : `replaying ${recorder.cassette} (mode once: it exists; nothing new is recorded)`;
    context.stdout.write(`assopay record: listening on ${recorder.url} → ${upstream}, ${doing}\n`);
    context.stdout.write(`  notifications: ${recorder.notificationUrl}\n`);
    printInterception(context, recorder.url, recorder.interception, flags.values.json === true);
    await waitForAbort(context.signal);
    const { recorded } = await recorder.close();
    context.stdout.write(
      `assopay record: stopped; ${recorded} interaction(s) written to ${recorder.cassette}\n`,
    );
    return 0;
  },
};
