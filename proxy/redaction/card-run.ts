/**
 * The body scan's look for card-number candidates (`scan.ts`), apart from its pass over every byte: a
 * candidate is a run of 13 digits or more, so most bytes need not be read to rule one out.
 */
/** Bytes of a card number's run: 1 for a digit, 2 for a separator (space or `-`), else 0. */
const RUN = (() => {
  const table = new Uint8Array(256);
  for (let c = 0x30; c <= 0x39; c++) table[c] = 1;
  table[0x20] = 2;
  table[0x2d] = 2;
  return table;
})();

/** The shortest run a card-number candidate is: 13 digits. */
const CARD_DIGITS = 13;

/**
 * Whether `b` holds a card-number candidate: 13 digits or more, a single space or `-` allowed between
 * two of them. Such a run spans 13 bytes or more, so it covers one of every 13 bytes read from 12 on: the
 * others are skipped until a byte read can be part of a run; then that whole stretch of digits and
 * separators is walked from its start, and reading goes on 13 bytes past its end.
 */
export function cardRun(b: Buffer): boolean {
  const n = b.length;
  let p = CARD_DIGITS - 1;
  while (p < n) {
    if (RUN[b[p] as number] === 0) {
      p += CARD_DIGITS;
      continue;
    }
    let k = p;
    while (k > 0 && RUN[b[k - 1] as number] !== 0) k--;
    let digits = 0;
    let separated = false;
    for (; k < n; k++) {
      const run = RUN[b[k] as number] as number;
      if (run === 1) {
        separated = false;
        if (++digits >= CARD_DIGITS) return true;
      } else if (run === 2 && digits > 0 && !separated) {
        separated = true;
      } else if (run === 2) {
        digits = 0;
        separated = false;
      } else break;
    }
    p = k + CARD_DIGITS;
  }
  return false;
}
