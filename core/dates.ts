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
