import { AssopayError } from "../../core/errors.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { startReplay } from "../../proxy/replay/server.js";
import type { Command, CommandContext } from "../command.js";
import { listFlag, parseFlags, portFlag, stringFlag } from "../flags.js";
import { INTERCEPT_FLAGS, INTERCEPT_HELP, interceptFlags, printInterception } from "./intercept-flags.js";

const DEFAULT_PORT = 8471;

const HELP = `assopay replay: serve recorded cassettes

Usage: assopay replay --cassette PATH [--cassette PATH | PATH]... [--port N] [--at YYYY-MM-DD] [--quiet]
                      [--intercept HOST]... [--ca-dir DIR] [--json]

Serves the recorded responses of one or more cassettes on 127.0.0.1. A request matches an interaction
on method, path, query (names without case, in any order; repeated names kept) and body (JSON by value,
forms as sorted pairs). Identical requests are answered in recorded order, then the last one repeats.
A request that matches nothing gets a 501 problem+json listing the closest recorded requests and each
field that differs. Requests carrying real secrets match the placeholders in the cassette.

With --at, responses are what the service answers at that date: on the six count-deprecation routes the
counts become -1 (unless withCount=true) or disappear after their removal, and v3 routes answer 404
after their switch-off. Lets you try an SDK against a cutoff before it happens.

Flags:
  --cassette PATH   a cassette to serve (repeat it, or list more paths after it)
  --port N          port to listen on (default ${DEFAULT_PORT}; 0 takes any free port)
  --at YYYY-MM-DD   answer as the service will at that date (default: as recorded)
  --quiet           print only misses and warnings, not every replayed request
${INTERCEPT_HELP}
  -h, --help        this text

Environment:
  ASSOPAY_CASSETTE_SALT  the salt the cassettes were recorded with, if any

Stops on Ctrl-C (SIGINT) or SIGTERM.
Exit codes: 0 stopped cleanly, 2 bad usage or a malformed cassette (file:line and the problem are printed).

Examples:
  assopay replay --cassette recordings/pagination-crawl.yaml
  assopay replay --cassette recordings/pagination-crawl.yaml recordings/public-form.yaml --at 2025-07-01
  assopay replay --cassette rec.yaml --intercept api.helloasso.com
`;

function waitForAbort(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

export const replayCommand: Command = {
  name: "replay",
  summary: "Serve recorded cassettes",
  help: HELP,
  async run(context: CommandContext): Promise<number> {
    const flags = parseFlags(
      "replay",
      context.argv,
      {
        cassette: { type: "string", multiple: true },
        port: { type: "string" },
        at: { type: "string" },
        quiet: { type: "boolean" },
        ...INTERCEPT_FLAGS,
      },
      true,
    );
    const cassettes = [...listFlag(flags, "cassette"), ...flags.positionals];
    if (cassettes.length === 0) {
      throw new AssopayError("usage", "assopay replay: --cassette is required", {
        hint: "for example --cassette recordings/pagination-crawl.yaml",
      });
    }
    const quiet = flags.values.quiet === true;
    const print = (event: ProxyEvent) => {
      if (quiet && event.kind === "replayed") return;
      context.stderr.write(`  ${event.message}\n`);
    };
    const at = stringFlag(flags, "at");
    const replay = await startReplay({
      cassettes,
      port: portFlag("replay", stringFlag(flags, "port"), DEFAULT_PORT),
      at,
      secretSalt: context.env.ASSOPAY_CASSETTE_SALT,
      onEvent: print,
      ...interceptFlags(flags, context.env),
    });
    const when = at ? ` as of ${at}` : "";
    context.stdout.write(
      `assopay replay: listening on ${replay.url}, ${replay.interactions} interaction(s) from ${cassettes.length} cassette(s)${when}\n`,
    );
    printInterception(context, replay.url, replay.interception, flags.values.json === true);
    await waitForAbort(context.signal);
    await replay.close();
    context.stdout.write("assopay replay: stopped\n");
    return 0;
  },
};
