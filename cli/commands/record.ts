import { RECORD_MODES, type RecordMode } from "../../proxy/record/options.js";
import { startRecorder } from "../../proxy/record/server.js";
import { type Command, type CommandContext, untilAborted } from "../command.js";
import {
  choiceFlag,
  millisecondsOf,
  type ParsedFlags,
  parseFlags,
  portFlag,
  required,
  stringFlag,
  wholeFlag,
} from "../flags.js";
import { announce, listenOptions, SERVER_FLAGS, SERVER_HELP } from "./server-flags.js";

const DEFAULT_PORT = 8470;

const HELP = `assopay record: record traffic through a proxy into a YAML cassette

Usage: assopay record --upstream URL --cassette PATH [--port N] [--mode once|new|all] [--keep N] [--redact-pii]
                      [--notify-forward URL] [--notify-path PATH] [--max-body BYTES] [--max-cassette-bytes BYTES]
                      [--timeout SECONDS] [--quiet] [--host ADDR] [--ignore FIELD]... [--match FIELD:RULE]... [--json]
                      [--intercept HOST]... [--ca-dir DIR]

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
  --host ADDR           address to bind (default 127.0.0.1)
  --mode MODE           once: record only if the cassette does not exist, else serve it and refuse
                              unseen requests (default)
                        new:  serve what the cassette holds, forward and append the rest; a
                              request carrying a <secret:…> placeholder is never forwarded
                        all:  record everything again into PATH.recording, which replaces PATH
                              when the recorder stops (the old file is kept as
                              PATH.previous-<time>; nothing recorded leaves PATH as it was)
  --keep N              --mode all: earlier versions to keep (default 3, at least 1)
  --redact-pii          replace payer and user names and e-mails with stable fakes of the same shape
  --notify-forward URL  your own notification receiver; its answer goes back to the service
  --notify-path PATH    the proxy path that takes notifications (default /__assopay/notifications)
  --max-body BYTES      largest request or response body recorded (default 52428800, 50 MB)
  --max-cassette-bytes BYTES
                        bound on the cassette's size (default 268435456, 256 MiB): a warning at 80%;
                        at the bound recording stops and new requests get 507 (start a new cassette)
  --timeout SECONDS     how long the upstream may stay silent before a 504 (default 30; fractions allowed)
  --ignore FIELD        a matching rule written into the cassette header (see 'assopay replay --help')
  --match F:RULE        match a field by type (F:type) or regex (F:/REGEX/), written into the header
  --json                print one JSON start line (url, port, host, caPath, notificationUrl)
  --quiet               print only problems, not every recorded exchange
${SERVER_HELP}
  -h, --help            this text

Environment:
  ASSOPAY_CASSETTE_SALT  a salt for the secret placeholders (replay needs the same one)

Stops on Ctrl-C (SIGINT) or SIGTERM after writing every finished exchange; more signals during that
drain do not cut it short. Each exchange is journaled (PATH.journal) before its response ends, so even
a recorder killed outright loses none: the next start recovers them into the cassette and says so.
A lock left by a recorder that no longer runs is taken over.
Exit codes: 0 stopped cleanly, 2 bad usage, the cassette is locked by another recorder, it is malformed,
or PATH is not a cassette (record never overwrites another kind of file).

Examples:
  assopay record --upstream https://api.helloasso-sandbox.com --cassette recordings/crawl.yaml
  assopay record --upstream http://127.0.0.1:8080 --cassette rec.yaml --mode new --redact-pii --port 0
  assopay record --intercept api.helloasso.com --cassette rec.yaml
`;

/** The longest `--timeout` record takes: an hour of upstream silence. */
const MAX_TIMEOUT_SECONDS = 3600;

/**
 * `--timeout SECONDS`, the unit of every verb's `--timeout`. It took milliseconds before 0.2, so a value
 * past an hour gets a hint that reads it as such (`--timeout 30000` → "did you mean --timeout 30?").
 */
function upstreamTimeoutMs(flags: ParsedFlags): number | undefined {
  const asMs = Number(stringFlag(flags, "timeout"));
  const hint =
    Number.isFinite(asMs) && asMs > MAX_TIMEOUT_SECONDS
      ? `--timeout takes seconds, as in every verb (it took milliseconds before): for ${asMs} ms write --timeout ${asMs / 1000}`
      : undefined;
  return millisecondsOf(flags, "timeout", { max: MAX_TIMEOUT_SECONDS, example: 30, hint });
}

export const recordCommand: Command = {
  stopsOnSignal: true,
  name: "record",
  summary: "Record traffic through a proxy into a YAML cassette",
  help: HELP,
  async run(context: CommandContext): Promise<number> {
    const flags = parseFlags(
      "record",
      context.argv,
      `upstream= cassette= port= mode= keep= redact-pii notify-forward= notify-path= max-body= max-cassette-bytes= timeout= ${SERVER_FLAGS}`,
    );
    const listen = listenOptions(flags, context.env);
    const first = listen.intercept[0];
    const upstream =
      stringFlag(flags, "upstream") || first === undefined
        ? required(
            "record",
            "--upstream",
            stringFlag(flags, "upstream"),
            "--upstream https://api.helloasso-sandbox.com",
          )
        : `https://${first.trim()}`;
    const cassette = required(
      "record",
      "--cassette",
      stringFlag(flags, "cassette"),
      "--cassette recordings/session.yaml",
    );
    const mode: RecordMode = choiceFlag("record", "mode", stringFlag(flags, "mode"), RECORD_MODES, "once");
    const recorder = await startRecorder({
      upstream,
      cassette,
      port: portFlag("record", stringFlag(flags, "port"), DEFAULT_PORT),
      ...listen,
      mode,
      keep: wholeFlag(flags, "keep", { example: 3 }),
      redactPii: flags.values["redact-pii"] === true,
      notifyForward: stringFlag(flags, "notify-forward"),
      notificationPath: stringFlag(flags, "notify-path"),
      maxBodyBytes: wholeFlag(flags, "max-body", { example: 52428800 }),
      maxCassetteBytes: wholeFlag(flags, "max-cassette-bytes", { example: 268435456 }),
      upstreamTimeoutMs: upstreamTimeoutMs(flags),
      secretSalt: context.env.ASSOPAY_CASSETTE_SALT,
      // `--quiet`: recorded exchanges and notifications are not reported at all (problems always are).
      reportExchanges: flags.values.quiet !== true,
      onEvent: (event) => context.stderr.write(`  ${event.message}\n`),
    });
    const doing =
      recorder.state === "recording"
        ? `recording to ${recorder.cassette} (mode ${mode})`
        : `replaying ${recorder.cassette} (mode once: it exists; nothing new is recorded)`;
    const { port, hostname } = new URL(recorder.url);
    const out = announce(
      context,
      flags,
      {
        command: "record",
        url: recorder.url,
        port: Number(port),
        host: stringFlag(flags, "host") ?? hostname,
        upstream,
        cassette: recorder.cassette,
        state: recorder.state,
        notificationUrl: recorder.notificationUrl,
      },
      recorder.interception,
      `assopay record: listening on ${recorder.url} → ${upstream}, ${doing}\n  notifications: ${recorder.notificationUrl}\n`,
    );
    // Runs until stopped, or until recording stops by itself (the journal cannot be written: the error,
    // with its hint, was printed as it happened); then exits 2.
    const stopped = await Promise.race([untilAborted(context.signal), recorder.stopped]);
    const { recorded } = await recorder.close();
    out.write(`assopay record: stopped; ${recorded} interaction(s) written to ${recorder.cassette}\n`);
    return stopped === undefined ? 0 : 2;
  },
};
