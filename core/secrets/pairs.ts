/**
 * The one grammar of secret-named pairs in free text (an env dump, a config file, a log line, a JSON
 * string, a header, a report's reason), used by the recorder (`proxy/redaction/`) and by every report,
 * log and error (`text.ts`), as people write them: `name=value`, `name: value`, `name => value`, `name := value`, the name or the value
 * quoted (`"api_key": "…"`, `token: '…'`, `SECRET="…"`, `` key: `…` ``), a command line's `--password …`,
 * an element `<token>…</token>` in text that is not XML, and a pair of a URL encoded once more
 * (`client_secret%3D…`). Only the value is replaced; its quotes and the name stay.
 */
import type { NamePlace } from "./names.js";

/**
 * How a pair's name is judged: by the project's lists (`names.ts`), or by a recorder's classifier of
 * them (`proxy/redaction/fields.ts`, which remembers its answers and may list more names).
 */
export interface PairNames {
  /** Whether a value under `name` is a secret, read at `place` (in a URL's query or fragment: `form`). */
  isSecret(name: string, place: NamePlace): boolean;
  /** Whether `text` may hold a secret's name at all: a cheap filter, `true` when unsure. */
  mayName(text: string): boolean;
}

/**
 * The authentication schemes whose word stays before the credentials it introduces (`Authorization:
 * Basic …`, a report's `Bearer <secret:…>`).
 */
export const AUTH_SCHEMES = [
  "basic",
  "bearer",
  "digest",
  "negotiate",
  "token",
  "bot",
  "ssws",
  "apikey",
  "hmac",
  "aws4-hmac-sha256",
];

/**
 * A name of up to three words one blank apart (`Mot de passe`, `access token`; quoted or not: the quote
 * before it is in the look-behind, the one after it in the separator; after `?`, `&` or `#`, a URL's
 * query or fragment in the text),
 * `=`, `:`, `=>` or `:=` between blanks, an authentication scheme (`Authorization: Basic …`: the
 * credentials are the value), then the value: quoted (to its closing quote, on one line) or bare (up to a
 * blank, a quote, `<`, `>`, `;`, `,` or `&`, never ending on a backslash, so that a JSON string's escape
 * `\"` is never cut in two).
 */
const PAIR = new RegExp(
  String.raw`(?<=^|[\s;,{([\`"':\\?&#])(?<name>[A-Za-z_][\w.-]{0,100}(?: [A-Za-z][\w.-]{0,100}){0,2})(?<sep>\\?["'\`]?[ \t]*(?:=>|:=|=|:)[ \t]*)(?<scheme>(?:${AUTH_SCHEMES.join("|")})[ \t]+)?(?:\\"(?<escaped>[^"\\\n]{1,1000})\\"|"(?<double>[^"\n]{1,1000})"|'(?<single>[^'\n]{1,1000})'|\`(?<back>[^\`\n]{1,1000})\`|(?<bare>[^\s"'\`<>;,&]*[^\s"'\`<>;,&\\]))`,
  "gi",
);

/**
 * A command line's flag and its value after a blank: `--password s3cr3t`, `-token s3cr3t` (at the
 * start of a line, after a blank, or at the start of a quoted string).
 */
const FLAG = /(?<=^|[\s"'])--?(?<name>[A-Za-z][\w-]{0,100})[ \t]+(?<bare>[^\s"'`<>;,&-][^\s"'`<>;,&]*)/g;

/**
 * A pair of a URL encoded once more, as a URL held in another's query is (`…%3Fclient_secret%3D…%26…`):
 * its value runs to the next encoded `&`.
 */
const ENCODED =
  /(?<=^|[\s;,{(?&"'=]|%26|%3F)(?<name>[A-Za-z_][\w.-]{0,100})%3D(?<bare>[^\s"'`<>;,&%]+(?:%(?!26)[0-9A-Fa-f]{2}[^\s"'`<>;,&%]*)*)/gi;

/**
 * A URL path's segment after a segment named like a secret (`/hooks/secret/9f8e…`, `/api_key/…`): a
 * receiver's secret in its URL, as notification receivers carry one.
 */
const SEGMENT = /(?<=\/)(?<name>[A-Za-z_][\w.-]{0,100})\/(?<bare>[^\s/?#"'`<>;,&]+)/g;

/** An element in text that is not XML (a log line quoting a SOAP call): `<token>…</token>`. */
const ELEMENT = /<(?<name>[A-Za-z_][\w.:-]{0,100})>(?<bare>[^<\n]{1,1000})<\/\k<name>>/g;

/**
 * What the pairs above need, tested first on every string (most hold none), as two expressions (one
 * with every branch cost three times as much over a JSON text): a name's last letter then a separator
 * (not a URL's `://`); else a quoted name's closing quote then `=`, or `:` and a blank (compact JSON's
 * `"key":` is no such pair: its keys are redacted as keys), a dash after a blank, a quote or the start,
 * an element's end, an encoded `=`, a path's `/` before a word.
 */
const MAY_PAIR = /[A-Za-z_][ \t]*(?:=|:(?!\/\/))/;
// Each branch starts on its rarest character, the look-behind read only there (a third faster).
const MAY_OTHER = /[=:](?<=["'`][ \t]*(?:=|:(?=[ \t])))|-(?<![^\s"']-)|<\/|%3[Dd]|\/\w/;

/** The groups a value may be in, one a match. */
const VALUE_GROUPS = ["escaped", "double", "single", "back", "bare"] as const;

/**
 * A bare word of letters after `name:` or after a flag, with more words after it, is prose, not a value
 * (`token: the token URL answered 404`, `--url-secret must be a part of --to`); a value people write
 * there is one word (`password: hunter2`, `--password hunter2 …`).
 */
const PROSE = /^[A-Za-z]+$/;
const MORE_WORDS = /^[ \t]+[A-Za-z]/;

interface Found {
  readonly at: number;
  readonly length: number;
  readonly name: string;
}

/**
 * Whether a name of one to three words is a secret's, whole or by its last words: "Mot de passe" is one
 * (`motdepasse`), and so is "Enter PIN" (`pin`, which is a secret only as a whole name).
 */
export function secretName(name: string, names: PairNames, place: NamePlace): boolean {
  const words = name.split(" ");
  return words.some((_, i) => names.isSecret(words.slice(i).join(" "), place));
}

/** The value of each match of `pattern` in `text` whose name is a secret's, in order, none overlapping. */
function secretValues(text: string, pattern: RegExp, names: PairNames, into: Found[]): void {
  const flag = pattern === FLAG;
  // With indices (`d`): where the value's group starts, whatever follows it (an element's end tag).
  const each = new RegExp(pattern.source, `${pattern.flags}d`);
  for (let found = each.exec(text); found; found = each.exec(text)) {
    const groups = found.groups ?? {};
    const written = groups.name ?? "";
    // An element's name may carry a namespace prefix (`wsse:Password`): the local name is the field's.
    const name = written.slice(written.lastIndexOf(":") + 1);
    const key = VALUE_GROUPS.find((group) => groups[group] !== undefined);
    const value = key === undefined ? "" : (groups[key] ?? "");
    const at = key === undefined ? -1 : (found.indices?.groups?.[key]?.[0] ?? -1);
    // In a URL's query or fragment, a name is judged as a form's (`?code=`, `&state=` are OAuth's).
    const lead = text.charCodeAt(found.index - 1);
    const inUrl = lead === 0x3f || lead === 0x26 || lead === 0x23;
    const prose =
      key === "bare" &&
      (flag || groups.sep?.replace(/[\s"'`\\]/g, "") === ":") &&
      PROSE.test(value) &&
      MORE_WORDS.test(text.slice(at + value.length, at + value.length + 2));
    if (prose || value === "" || at < 0 || !secretName(name, names, inUrl ? "form" : "field")) {
      // Not a secret's value: it may hold a pair of its own (`log: PASSWORD=…`).
      each.lastIndex = found.index + written.length + 1;
      continue;
    }
    into.push({ at, length: value.length, name });
  }
}

/**
 * The text with the value of every secret-named pair replaced by `replace(value, name)`; the text itself
 * when it holds none.
 *
 * @example
 * redactPairs(`api_key: "9xK2mQ7v"`, names, (value) => "<x>"); // api_key: "<x>"
 */
export function redactPairs(
  text: string,
  names: PairNames,
  replace: (value: string, name: string) => string,
): string {
  // A separator, a flag or an element, and a secret's name somewhere: else there is no pair to look at.
  if (!(MAY_PAIR.test(text) || MAY_OTHER.test(text)) || !names.mayName(text)) return text;
  const found: Found[] = [];
  for (const pattern of [PAIR, FLAG, ELEMENT, ENCODED, SEGMENT]) secretValues(text, pattern, names, found);
  if (found.length === 0) return text;
  found.sort((a, b) => a.at - b.at);
  let out = "";
  let copied = 0;
  for (const { at, length, name } of found) {
    if (at < copied) continue;
    out += text.slice(copied, at) + replace(text.slice(at, at + length), name);
    copied = at + length;
  }
  return out + text.slice(copied);
}
