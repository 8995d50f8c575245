import { AssopayError, commaList } from "../../core/errors.js";
import { CHECK_GROUPS, type Check } from "./types.js";

/** The checks `--only` names (groups or check ids), in run order; all of them when it names none. */
export function selectChecks<C extends Check<never>>(checks: readonly C[], only: readonly string[]): C[] {
  if (only.length === 0) return [...checks];
  const names = commaList(only);
  for (const name of names) {
    const known = (CHECK_GROUPS as readonly string[]).includes(name) || checks.some((c) => c.id === name);
    if (!known) {
      throw new AssopayError("usage", `--only: no group or check named "${name}"`, {
        hint: `groups: ${CHECK_GROUPS.join(", ")} (or a check id such as ${checks[0]?.id ?? "pagination/token-echoed"})`,
      });
    }
  }
  return checks.filter((c) => names.includes(c.group) || names.includes(c.id));
}
