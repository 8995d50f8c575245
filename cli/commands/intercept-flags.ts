import { CA_DIR_VARIABLE, defaultCaDir } from "../../proxy/forward/ca-dir.js";
import { formatEnvironment, interceptEnvironment } from "../../proxy/forward/environment.js";
import type { Interception } from "../../proxy/forward/interception.js";
import type { CommandContext } from "../command.js";
import { type FlagSpec, listFlag, type ParsedFlags, stringFlag } from "../flags.js";

/** The flags `record` and `replay` share for intercepting hard-coded hosts. */
export const INTERCEPT_FLAGS: FlagSpec = {
  intercept: { type: "string", multiple: true },
  "ca-dir": { type: "string" },
};

/** Their lines in both verbs' help. */
export const INTERCEPT_HELP = `  --intercept HOST      also answer for HOST (repeatable, or comma-separated), for applications that
                        call it by a hard-coded https URL: through the Node preload
                        (node --import assopay-contract/intercept) or as HTTPS_PROXY/HTTP_PROXY, with
                        a local CA made on first use; every other host is refused (403). The
                        variables to export are printed at start (see docs/cassettes.md)
  --ca-dir DIR          where that CA is kept (default $${CA_DIR_VARIABLE}, else
                        $XDG_CONFIG_HOME/assopay, else ~/.config/assopay); with --json, the start
                        line carries caPath and the variables to export`;

/** The hosts to intercept and the CA folder, from the flags (and the environment for the folder). */
export function interceptFlags(
  flags: ParsedFlags,
  env: CommandContext["env"],
): { intercept: string[]; caDir: string } {
  const intercept = listFlag(flags, "intercept").flatMap((list) => list.split(","));
  const caDir = stringFlag(flags, "ca-dir") ?? defaultCaDir(env);
  return { intercept, caDir };
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
