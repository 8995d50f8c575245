import { type IsoDay, todayIso } from "../core/dates.js";
import type { ServiceInstant } from "./service-dates.js";

/**
 * The sandbox's clock. It starts at `--at` (10:00 UTC that day) or at the real time, runs at real speed,
 * and can be moved forward or set by tests (`POST /_clock`). Every dated rule reads `day()`.
 */
export interface SandboxClock {
  /** The sandbox's current instant, in milliseconds since the epoch. */
  nowMs(): number;
  /** The current instant with 100 ns ticks, for service-formatted dates. */
  instant(): ServiceInstant;
  /** The sandbox's current day (UTC), the date every timeline rule is read at. */
  day(): IsoDay;
  /** Moves the clock forward (or back, with a negative value). */
  advance(ms: number): void;
  /** Jumps to a day (10:00 UTC) or to an exact instant. */
  set(target: IsoDay | Date): void;
  /** Forgets every move: the clock runs as if never advanced or set (provider-state teardown). */
  reset(): void;
}

/** The instant a `--at` day starts the sandbox at. */
export function startOfSandboxDay(day: IsoDay): number {
  return Date.parse(`${day}T10:00:00.000Z`);
}

export function createClock(at: IsoDay | undefined, realNow: () => number = Date.now): SandboxClock {
  const origin = at === undefined ? realNow() : startOfSandboxDay(at);
  const realStart = realNow();
  let offset = 0;
  const nowMs = () => origin + (realNow() - realStart) + offset;
  let lastTicks = 0;
  return {
    nowMs,
    instant() {
      lastTicks = (lastTicks + 7919) % 10_000;
      return { ms: nowMs(), ticks: lastTicks };
    },
    day: () => todayIso(new Date(nowMs())),
    advance(ms) {
      offset += ms;
    },
    set(target) {
      const wanted = typeof target === "string" ? startOfSandboxDay(target) : target.getTime();
      offset += wanted - nowMs();
    },
    reset() {
      offset = 0;
    },
  };
}
