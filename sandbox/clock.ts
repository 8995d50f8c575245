import { type IsoDay, todayIso } from "../core/dates.js";
import type { ServiceInstant } from "./service-dates.js";

/** The first instant the clock may show: 2000-01-01T00:00:00Z. */
export const CLOCK_MIN_MS = Date.parse("2000-01-01T00:00:00.000Z");
/** The last instant the clock may show: 2099-12-31T23:59:59.999Z (service dates have four-digit years). */
export const CLOCK_MAX_MS = Date.parse("2099-12-31T23:59:59.999Z");

/**
 * Why the clock may not go to `targetMs` (a sentence for a 400 answer), or undefined when it may: the
 * sandbox's clock stays within the years 2000 to 2099.
 *
 * @example
 * clockBoundProblem(Date.parse("2025-07-01T10:00:00Z")); // undefined
 * clockBoundProblem(8.64e15); // "the clock must stay between 2000-01-01 and 2099-12-31 (UTC); ..."
 */
export function clockBoundProblem(targetMs: number): string | undefined {
  if (Number.isFinite(targetMs) && targetMs >= CLOCK_MIN_MS && targetMs <= CLOCK_MAX_MS) return undefined;
  const where =
    Number.isFinite(targetMs) && Math.abs(targetMs) <= 8.64e15
      ? new Date(targetMs).toISOString()
      : "beyond any date";
  return `the clock must stay between 2000-01-01 and 2099-12-31 (UTC); this move would take it to ${where}`;
}

/** The instant a `--at` day starts the sandbox at. */
export function startOfSandboxDay(day: IsoDay): number {
  return Date.parse(`${day}T10:00:00.000Z`);
}

/**
 * The sandbox's clock. It starts at `--at` (10:00 UTC that day) or at the real time, runs at real speed,
 * and can be moved forward (or back, with a negative value) or set to a day (10:00 UTC) or an instant
 * by tests (`POST /_clock`). Every dated rule reads `day()`, the current day (UTC); `instant()` has 100 ns
 * ticks, for service-formatted dates.
 */
export function createClock(at: IsoDay | undefined, realNow: () => number = Date.now) {
  const origin = at === undefined ? realNow() : startOfSandboxDay(at);
  const realStart = realNow();
  let offset = 0;
  const nowMs = () => origin + (realNow() - realStart) + offset;
  let lastTicks = 0;
  return {
    nowMs,
    instant(): ServiceInstant {
      lastTicks = (lastTicks + 7919) % 10_000;
      return { ms: nowMs(), ticks: lastTicks };
    },
    day: (): IsoDay => todayIso(new Date(nowMs())),
    advance(ms: number) {
      offset += ms;
    },
    set(target: IsoDay | Date) {
      const wanted = typeof target === "string" ? startOfSandboxDay(target) : target.getTime();
      offset += wanted - nowMs();
    },
    /** Forgets every move: the clock runs as if never advanced or set (provider-state teardown). */
    reset() {
      offset = 0;
    },
  };
}

export type SandboxClock = ReturnType<typeof createClock>;
