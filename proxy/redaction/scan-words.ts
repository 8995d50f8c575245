/**
 * What the body scan (`scan.ts`) reads bytes with: its two automata (the formats' literal words as
 * written; the secret names, `bearer` and OAuth's form pairs in any case), the classes of bytes its
 * counters follow, and the small byte-level tests it makes where something was found.
 */

import { checkedSpellings } from "../../core/secrets/access-token-formats.js";
import { type Automaton, buildAutomaton, PLAIN, wordBytes } from "../../core/secrets/automaton.js";
import { FORMAT_WORDS } from "../../core/secrets/formats.js";
import { FORM_SECRET_NAMES } from "./secrets.js";

/** Tags of the formats' automaton (case as written): a smaller one wins where two words end. */
export const FORMAT_TAG = 1;
export const URL_TAG = 2;
/** The first checked word's tag; the others follow (`CHECKED`). */
export const CHECKED_TAG = 3;
/** Tags of the names' automaton (any case; blanks, `-` and `_` skipped). */
export const FORM_TAG = 1;
export const BEARER_TAG = 2;
export const NAME_TAG = 3;

/**
 * The formats' literal words as written, `://` (where a URL password may follow) and the checked words
 * (where their secret's rest must follow).
 */
export const FORMATS = buildAutomaton(
  [
    ...FORMAT_WORDS.literals.map((word) => ({ bytes: wordBytes(word), tag: FORMAT_TAG })),
    { bytes: wordBytes(FORMAT_WORDS.urlPassword), tag: URL_TAG },
    ...FORMAT_WORDS.checked.flatMap((c, i) =>
      checkedSpellings(c).map((word) => ({
        bytes: wordBytes(word),
        tag: CHECKED_TAG + i,
      })),
    ),
  ],
  PLAIN,
);

/** Each checked word (its tag `CHECKED_TAG` + its index): its length, and what must follow it. */
export const CHECKED: readonly { readonly length: number; readonly after: RegExp; readonly span: number }[] =
  Object.freeze(
    FORMAT_WORDS.checked.map((c) => ({
      length: wordBytes(c.word).length,
      after: new RegExp(`^(?:${c.after})`),
      span: c.span,
    })),
  );

/**
 * The words read in any case: the key filter's names, `bearer` (a credential may follow), and `?code=`,
 * `&state=` … (OAuth's secrets in a URL or a form). Blanks, `-` and `_` are skipped (`Mot de passe`,
 * `access-token`). Skipping them inside the last two finds a few
 * spellings more than their own patterns do (`bea-rer`): a body holding one takes the general path.
 * Its steps on the `flagged` bytes carry the automaton's flag (the bytes the scan looks at in any case).
 */
export function namesAutomaton(names: readonly string[], flagged: readonly number[]): Automaton {
  return buildAutomaton(
    [
      ...names.map((name) => ({ bytes: wordBytes(name), tag: NAME_TAG })),
      ...["?", "&", "#"].flatMap((lead) =>
        FORM_SECRET_NAMES.map((name) => ({ bytes: wordBytes(`${lead}${name}=`), tag: FORM_TAG })),
      ),
      { bytes: wordBytes(FORMAT_WORDS.bearer), tag: BEARER_TAG },
    ],
    { foldCase: true, skip: [0x20, 0x2d, 0x5f], flagged },
  );
}

/** Blanks as `\s` reads a byte (the old scans read bodies as latin1: 0xA0 is one). */
export function isBlank(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x09 && c <= 0x0d) || c === 0x20 || c === 0xa0);
}

/** A character of a name (`client_secret`, `ns:password` without its prefix). */
export function nameChar(c: number | undefined): boolean {
  return (
    c !== undefined &&
    ((c >= 0x30 && c <= 0x39) ||
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      c === 0x5f ||
      c === 0x2d ||
      c === 0x2e)
  );
}

/** A key's name, its escapes decoded (`\u0061ccess_token` is `access_token`). */
export function keyName(raw: string): string {
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Whether the UTF-8 sequence at `i` is one a literal block cannot hold (C1, U+2028/9, BOM, U+FFFE/F). */
export function notLiteralSequence(b: Buffer, i: number): boolean {
  const c = b[i];
  const d = b[i + 1];
  const e = b[i + 2];
  if (c === 0xc2) return d !== undefined && d >= 0x80 && d <= 0x9f;
  if (c === 0xe2) return d === 0x80 && (e === 0xa8 || e === 0xa9);
  return (d === 0xbb && e === 0xbf) || (d === 0xbf && (e === 0xbe || e === 0xbf));
}
