import type { CheckContext } from "../runner/context.js";
import { isSuccess, parseJson } from "../runner/http.js";

/**
 * The target's movable clock next to the state URL (the sandbox convention `{state URL origin}/_clock`),
 * if the target offers one (`GET` answers JSON with `utc`). Checks that must let time pass (the
 * 15-minute window) skip without it.
 */
export async function targetClock(ctx: CheckContext) {
  if (!ctx.states) return undefined;
  const url = new URL("/_clock", ctx.states.url).toString();
  const probe = await ctx.http.send({ method: "GET", url });
  const parsed = isSuccess(probe.status) ? parseJson(probe) : undefined;
  if (!parsed?.ok || typeof (parsed.value as { utc?: unknown } | null)?.utc !== "string") return undefined;
  const post = (body: unknown) =>
    ctx.http.send({
      method: "POST",
      url,
      body: { contentType: "application/json", text: JSON.stringify(body) },
    });
  return {
    url,
    async advanceMinutes(minutes: number) {
      return isSuccess((await post({ advanceMinutes: minutes })).status);
    },
    async reset() {
      await post({ reset: true });
    },
  };
}
