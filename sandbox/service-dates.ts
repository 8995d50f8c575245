/**
 * Dates as the service writes them: local time in Europe/Paris with its offset (`+01:00` in winter,
 * `+02:00` in summer) and up to 7 fractional digits, trailing zeros trimmed as .NET does
 * (`2024-10-21T17:04:55.3020839+02:00`, `2024-10-21T17:04:29.297251+02:00`).
 */

/** `service`: the real format; `bare`: no fraction and no offset (the `bad-dates` fault). */
export type DateStyle = "service" | "bare";

/** An instant with sub-millisecond precision: milliseconds since the epoch plus 100 ns ticks (0–9999). */
export interface ServiceInstant {
  ms: number;
  ticks: number;
}

const DAY_MS = 86_400_000;

/** The last Sunday of a month at 01:00 UTC, in milliseconds, without a Date object (1970-01-01 was a Thursday). */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0);
  const weekday = (((Math.floor(lastDay / DAY_MS) + 4) % 7) + 7) % 7;
  return lastDay - weekday * DAY_MS + 3_600_000;
}

/** The offset of Europe/Paris at an instant, in minutes: 120 from the last Sunday of March, else 60. */
export function parisOffsetMinutes(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const summer = ms >= lastSundayAtOneUtc(year, 2) && ms < lastSundayAtOneUtc(year, 9);
  return summer ? 120 : 60;
}

/** Formats an instant the way the service does, or without fraction and offset for `bare`. */
export function formatServiceDate(instant: ServiceInstant, style: DateStyle): string {
  const offset = parisOffsetMinutes(instant.ms);
  const seconds = Math.floor(instant.ms / 1000) * 1000;
  const local = new Date(seconds + offset * 60_000).toISOString().slice(0, 19);
  switch (style) {
    case "bare":
      return local;
    case "service": {
      const ticks = (instant.ms - seconds) * 10_000 + instant.ticks;
      const fraction = String(Math.max(1, ticks)).padStart(7, "0").replace(/0+$/, "");
      return `${local}.${fraction}+0${offset / 60}:00`;
    }
  }
}
