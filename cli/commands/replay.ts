import { AssopayError } from "../../core/errors.js";
import { startReplay } from "../../proxy/replay/server.js";
import { type Command, type CommandContext, contractLoader, untilAborted } from "../command.js";
import { dateFlag, listFlag, parseFlags, portFlag, stringFlag } from "../flags.js";
import { announce, listenOptions, SERVER_FLAGS, SERVER_HELP } from "./server-flags.js";

const DEFAULT_PORT = 8471;

const HELP = `assopay replay: serve recorded cassettes

Usage: assopay replay --cassette PATH [--cassette PATH | PATH]... [--port N] [--host ADDR] [--at YYYY-MM-DD]
                      [--ignore FIELD]... [--match FIELD:RULE]... [--keep-origins] [--json] [--quiet]
                      [--intercept HOST]... [--ca-dir DIR] [--allow-host NAME]...

Serves the recorded responses of one or more cassettes on 127.0.0.1. A request matches an interaction
on method, path, query (names without case, in any order; repeated names kept) and body (JSON by value,
forms as sorted pairs). Identical requests are answered in recorded order, then the last one repeats.
A request that matches nothing gets a 501 problem+json listing the closest recorded requests and each
field that differs. Requests carrying real secrets match the placeholders in the cassette.

Matching rules (stored in the cassette header by 'assopay record --ignore/--match', applied without
flags; flags given here add to them): --ignore FIELD leaves a field out, --match FIELD:type compares its
JSON type only, --match 'FIELD:/REGEX/' accepts any value the pattern matches. FIELD is body.PATH (dots,
* for any key or index), query.NAME or header.NAME (headers are not matched unless a rule names them).

Responses point at the replay: the recorded service's origin (and its sibling hosts, as
www.helloasso-sandbox.com next to api.helloasso-sandbox.com) in bodies, Location and Link headers is
rewritten to the replay's own, so a client following a file or redirect URL never leaves it.
POST /__assopay/reset starts every sequence over; send it with content-type: application/json or the
header x-assopay-control: 1 (curl -X POST -H 'x-assopay-control: 1' URL/__assopay/reset). Requests from
web pages of other sites (an Origin or Sec-Fetch-Site naming another site) are refused (403).

With --at, responses are what the service answers at that date: on the six count-deprecation routes the
counts become -1 (unless withCount=true) or disappear after their removal, and v3 routes answer 404
after their switch-off; before a change, the routes it affects carry Deprecation, Sunset and Link
headers, as the sandbox sends them. Lets you try an SDK against a cutoff before it happens.

Flags:
  --cassette PATH   a cassette to serve (repeat it, or list more paths after it)
  --port N          port to listen on (default ${DEFAULT_PORT}; 0 takes any free port)
  --host ADDR       address to bind (default 127.0.0.1; 0.0.0.0 for every interface)
  --at YYYY-MM-DD   answer as the service will at that date (default: as recorded)
  --ignore FIELD    leave a request field out of matching (repeatable)
  --match F:RULE    match a field by type (F:type) or by regex (F:/REGEX/) (repeatable)
  --keep-origins    serve the recorded service's URLs as recorded
  --json            print one JSON start line (url, port, host, caPath, and with --intercept the
                    variables to export) instead of the text one
  --quiet           print only misses and warnings, not every replayed request
${SERVER_HELP}
  -h, --help        this text

Environment:
  ASSOPAY_CASSETTE_SALT  the salt the cassettes were recorded with, if any

Stops on Ctrl-C (SIGINT) or SIGTERM.
Exit codes: 0 stopped cleanly, 2 bad usage or a malformed cassette (file:line and the problem are printed).

Examples:
  assopay replay --cassette recordings/pagination-crawl.yaml
  assopay replay --cassette recordings/pagination-crawl.yaml recordings/public-form.yaml --at 2025-07-01
  assopay replay --cassette checkout.yaml --ignore body.metadata.memberId --match 'query.ref:/^[A-Z]{3}-\\d+$/' --json
  assopay replay --cassette rec.yaml --intercept api.helloasso.com
`;

export const replayCommand: Command = {
  stopsOnSignal: true,
  name: "replay",
  summary: "Serve recorded cassettes",
  help: HELP,
  async run(context: CommandContext): Promise<number> {
    const flags = parseFlags(
      "replay",
      context.argv,
      `cassette* port= at= keep-origins ${SERVER_FLAGS}`,
      true,
    );
    const cassettes = [...listFlag(flags, "cassette"), ...flags.positionals];
    if (cassettes.length === 0) {
      throw new AssopayError("usage", "assopay replay: --cassette is required", {
        hint: "for example --cassette recordings/pagination-crawl.yaml",
      });
    }
    const at = dateFlag("replay", stringFlag(flags, "at"));
    // Only `--at` reads the contract (its routes and timeline); without it the replay serves as recorded.
    const contract = at ? contractLoader(context)() : undefined;
    const replay = await startReplay({
      cassettes,
      port: portFlag("replay", stringFlag(flags, "port"), DEFAULT_PORT),
      ...listenOptions(flags, context.env),
      at,
      ...(contract ? { contract } : {}),
      keepOrigins: flags.values["keep-origins"] === true,
      secretSalt: context.env.ASSOPAY_CASSETTE_SALT,
      onEvent: (event) => {
        if (flags.values.quiet !== true || event.kind !== "replayed")
          context.stderr.write(`  ${event.message}\n`);
      },
    });
    const when = at ? ` as of ${at}` : "";
    const { url, port, host, interactions } = replay;
    const out = announce(
      context,
      flags,
      { command: "replay", url, port, host, interactions },
      replay.interception,
      `assopay replay: listening on ${url}, ${interactions} interaction(s) from ${cassettes.length} cassette(s)${when}\n`,
    );
    await untilAborted(context.signal);
    await replay.close();
    out.write("assopay replay: stopped\n");
    return 0;
  },
};
