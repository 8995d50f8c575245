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

/** Prints the variables that send clients to the server as `export` lines, when it intercepts hosts. */
export function printInterception(
  context: CommandContext,
  url: string,
  interception: Pick<Interception, "hosts" | "caCertFile"> | undefined,
): void {
  if (!interception) return;
  const environment = interceptEnvironment(url, interception.hosts, interception.caCertFile);
  context.stdout.write("  intercepting; in the application's shell:\n");
  context.stdout.write(formatEnvironment(environment, "shell"));
}

/**
 * What `--json`'s one start line says of interception: the CA to trust (`caPath`, null without
 * `--intercept`) and, when intercepting, every variable to export, by name.
 */
export function interceptionFields(
  url: string,
  interception: Pick<Interception, "hosts" | "caCertFile"> | undefined,
): { caPath: string | null } & Record<string, string | null> {
  if (!interception) return { caPath: null };
  return {
    caPath: interception.caCertFile,
    ...Object.fromEntries(interceptEnvironment(url, interception.hosts, interception.caCertFile)),
  };
}
