/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** `0.87` → `87%`. */
export function percent(ratio: number): string {
  return Number.isFinite(ratio) ? `${Math.round(ratio * 100)}%` : "n/a";
}

/** `1234.5` → `1,235`. */
export function whole(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "n/a";
}

/** CPU time per request (µs) for a table cell: `23.4`, or `n/a` where it was not measured. */
export function cpuPerRequest(microseconds: number): string {
  return Number.isFinite(microseconds) ? microseconds.toFixed(1) : "n/a";
}
