import { AssopayError } from "./errors.js";

/** A calendar day, `YYYY-MM-DD`, as every `--at` flag and timeline entry uses. */
export type IsoDay = string & { readonly __brand: "IsoDay" };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `text` is a real calendar day written `YYYY-MM-DD`. */
export function isIsoDay(text: string): text is IsoDay {
  const match = DAY.exec(text);
  if (!match) return false;
  const [, y, m, d] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d)
  );
}

/** Parses a `--at` value; a bad one is a usage error with a hint. */
export function parseIsoDay(text: string, what = "--at"): IsoDay {
  if (!isIsoDay(text)) {
    throw new AssopayError("usage", `${what} must be a calendar day written YYYY-MM-DD, got "${text}"`, {
      hint: `for example ${what} 2025-06-15`,
    });
  }
  return text;
}

/** Today's date in UTC. */
export function todayIso(now: Date = new Date()): IsoDay {
  return now.toISOString().slice(0, 10) as IsoDay;
}

/** The instant at which a day starts, in UTC. */
export function dayStart(day: IsoDay): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** An instant in milliseconds since the epoch, as ISO 8601 in UTC (`2025-04-01T10:00:00.000Z`). */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString();
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const IMF_FIXDATE = /^([A-Z][a-z]{2}), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

/**
 * An IMF-fixdate (`Mon, 30 Jun 2025 00:00:00 GMT`, RFC 9110 5.6.7), the one form of HTTP-date a sender
 * may generate: the instant, or undefined when the text is any other form or names no real moment (31
 * April, hour 24, a weekday that day is not). A leap second (`:60`) reads as the second before.
 */
export function parseHttpDate(text: string): Date | undefined {
  const [, weekday, day, month, year, hour, minute, second] = IMF_FIXDATE.exec(text) ?? [];
  const monthIndex = MONTHS.indexOf(month ?? "");
  const at = new Date(Date.UTC(Number(year), monthIndex, Number(day), Number(hour), Number(minute)));
  const seconds = Number(second);
  const real =
    at.getUTCMonth() === monthIndex &&
    at.getUTCDate() === Number(day) &&
    at.getUTCHours() === Number(hour) &&
    seconds <= 60 &&
    WEEKDAYS[at.getUTCDay()] === weekday;
  return real ? new Date(at.getTime() + Math.min(seconds, 59) * 1000) : undefined;
}
