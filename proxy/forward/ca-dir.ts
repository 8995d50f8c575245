import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The environment variable that overrides where the recording CA is kept (tests, CI). */
export const CA_DIR_VARIABLE = "ASSOPAY_CA_DIR";

/**
 * Where the generated CA is kept: `ASSOPAY_CA_DIR`, else `$XDG_CONFIG_HOME/assopay`, else
 * `~/.config/assopay`.
 *
 * @example
 * defaultCaDir(process.env); // "/home/me/.config/assopay"
 */
export function defaultCaDir(env: Readonly<Record<string, string | undefined>>): string {
  const own = env[CA_DIR_VARIABLE];
  if (own) return resolve(own);
  const config = env.XDG_CONFIG_HOME;
  return config ? join(resolve(config), "assopay") : join(homedir(), ".config", "assopay");
}
