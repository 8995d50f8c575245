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

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `YYYY-MM-DDThh:mm:ss` of a time in milliseconds, by day arithmetic (the proleptic Gregorian calendar,
 * days counted from 0000-03-01): what `toISOString().slice(0, 19)` gives, at a seventh of its cost. A
 * sandbox formats a date for every entry of every page it serves.
 */
function isoSeconds(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const secondOfDay = Math.floor((ms - days * DAY_MS) / 1000);
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(secondOfDay / 3600);
  const minutes = Math.floor(secondOfDay / 60) % 60;
  return `${year}-${twoDigits(month)}-${twoDigits(day)}T${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(secondOfDay % 60)}`;
}

/** Seven digits of 100 ns ticks (at least 1), trailing zeros trimmed as .NET does. */
function fractionOf(ticks: number): string {
  let rest = Math.max(1, ticks);
  let digits = 7;
  while (rest % 10 === 0) {
    rest /= 10;
    digits--;
  }
  return String(rest).padStart(digits, "0");
}

/** Formats an instant the way the service does, or without fraction and offset for `bare`. */
export function formatServiceDate(instant: ServiceInstant, style: DateStyle): string {
  const offset = parisOffsetMinutes(instant.ms);
  const seconds = Math.floor(instant.ms / 1000) * 1000;
  const local = isoSeconds(seconds + offset * 60_000);
  switch (style) {
    case "bare":
      return local;
    case "service":
      return `${local}.${fractionOf((instant.ms - seconds) * 10_000 + instant.ticks)}+0${offset / 60}:00`;
  }
}
