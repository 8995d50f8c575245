import type { Writable } from "node:stream";
import { CA_DIR_VARIABLE, defaultCaDir } from "../../proxy/forward/ca-dir.js";
import { formatEnvironment, interceptEnvironment } from "../../proxy/forward/environment.js";
import type { Interception } from "../../proxy/forward/interception.js";
import { matchRulesFromFlags } from "../../proxy/replay/match-rules.js";
import type { CommandContext } from "../command.js";
import { ALLOW_HOST_HELP, allowHostsFlag, listFlag, type ParsedFlags, stringFlag } from "../flags.js";

/**
 * The flags `record` and `replay` share besides their own: the address to bind, the match rules, what
 * to print, and the hosts to intercept (and the CA folder) and to answer.
 */
export const SERVER_FLAGS = "host= ignore* match* json quiet intercept* ca-dir= allow-host*";

/** The last lines of both verbs' flags in their help, before `--help`: intercepting and answering hosts. */
export const SERVER_HELP = `  --intercept HOST      also answer for HOST (repeatable, or comma-separated), for applications that
                        call it by a hard-coded https URL: through the Node preload
                        (node --import assopay-contract/intercept) or as HTTPS_PROXY/HTTP_PROXY, with
                        a local CA made on first use; every other host is refused (403). The
                        variables to export are printed at start (see docs/cassettes.md)
  --ca-dir DIR          where that CA is kept (default $${CA_DIR_VARIABLE}, else
                        $XDG_CONFIG_HOME/assopay, else ~/.config/assopay); with --json, the start
                        line carries caPath and the variables to export
${ALLOW_HOST_HELP}`;

/**
 * What both servers take from those flags as given: the address to bind, the hosts to answer, the match
 * rules, the hosts to intercept and the CA folder (from the environment without the flag).
 */
export function listenOptions(flags: ParsedFlags, env: CommandContext["env"]) {
  return {
    host: stringFlag(flags, "host"),
    allowHosts: allowHostsFlag(flags),
    matchRules: matchRulesFromFlags(listFlag(flags, "ignore"), listFlag(flags, "match")),
    intercept: listFlag(flags, "intercept").flatMap((list) => list.split(",")),
    caDir: stringFlag(flags, "ca-dir") ?? defaultCaDir(env),
  };
}

/** What `--json` prints once listening: one line of JSON, for scripts that start record or replay. */
interface StartLine {
  /** `record` or `replay`. */
  command: "record" | "replay";
  /** The base URL to point the client at. */
  url: string;
  port: number;
  /** The address bound. */
  host: string;
  /**
   * The CA certificate to trust when the forward proxy intercepts TLS; null while it does not.
   * (NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, SSL_CERT_FILE.)
   */
  caPath: string | null;
  /** Anything else the command reports (cassette, interactions, notification URL). */
  [detail: string]: unknown;
}

/**
 * Says the server is up: with `--json` one start line (`line`, plus the CA to trust, `caPath`, null without
 * `--intercept`, and when intercepting every variable to export, by name); else `text` and those variables
 * as `export` lines. Returns where the stop line goes: stderr with `--json`, so stdout stays that one line.
 */
export function announce(
  context: CommandContext,
  flags: ParsedFlags,
  line: Pick<StartLine, "command" | "url" | "port" | "host"> & Record<string, unknown>,
  interception: Pick<Interception, "hosts" | "caCertFile"> | undefined,
  text: string,
): Writable {
  const environment = interception
    ? interceptEnvironment(line.url, interception.hosts, interception.caCertFile)
    : undefined;
  if (flags.values.json === true) {
    const caPath = interception?.caCertFile ?? null;
    const start: StartLine = { ...line, caPath, ...Object.fromEntries(environment ?? []) };
    context.stdout.write(`${JSON.stringify(start)}\n`);
    return context.stderr;
  }
  context.stdout.write(text);
  if (environment) {
    context.stdout.write("  intercepting; in the application's shell:\n");
    context.stdout.write(formatEnvironment(environment, "shell"));
  }
  return context.stdout;
}
