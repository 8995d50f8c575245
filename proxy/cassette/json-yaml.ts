import { namesItsValue } from "../redaction/named-pairs.js";
import { isLiteralLine, isPlainBytes, needsEscape, sameBytes, YamlBlock, yamlString } from "./yaml-scalar.js";

/** Nesting deeper than this is left to the general path. */
const MAX_DEPTH = 64;
/** How many distinct keys a transcoder remembers the YAML form of. */
const KEY_CACHE_LIMIT = 5000;
/** Above this many keys an object's keys are checked for repeats with a set, below by a scan. */
const SCAN_KEYS = 16;
/** Byte runs shorter than this are copied by a loop: cheaper than a call into the runtime. */
const SMALL_COPY = 64;

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const DASH = 0x2d;
const NEWLINE = 0x0a;
const OPEN_MAP = 0x7b;
const CLOSE_MAP = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

/** A key met before: its bytes, and `key:` as the emitter writes it (null when the fast path refuses it). */
interface KeyEntry {
  readonly raw: Buffer;
  readonly yaml: Buffer | null;
  /** A pair object's naming key (`name`, `key`, any case): its string value may name a secret. */
  readonly names: boolean;
}

/**
 * Writes a JSON text straight to cassette YAML, byte for byte, without building the value: the recorder's
 * fast path for JSON bodies. It answers only when the result is exactly what parsing, redacting and
 * emitting would give, and otherwise says undefined (the caller takes the general path). So it requires:
 * - canonical JSON, the bytes `JSON.stringify` would write back (no whitespace, no escapes, numbers in
 *   their shortest form, no repeated keys, no keys an object would reorder, no `__proto__`);
 * - nothing to redact: no key `sensitive` names, no pair object `namesSecret` names, and none of the
 *   `secrets` anywhere in the text;
 * - nothing the emitter writes specially: no characters it escapes (a long string it writes as a
 *   one-line literal block, as the emitter does).
 *
 * @example new JsonToYaml(() => false).transcode(Buffer.from('{"a":[1,"x"]}'), 0)?.bytes.toString() // "\na:\n  - 1\n  - x\n"
 */
export class JsonToYaml {
  /** Keys met so far, by a hash of their bytes. */
  private readonly keys = new Map<number, KeyEntry[]>();
  private keyCount = 0;
  /** The values of `name` and `key` members met so far, and whether each names a secret. */
  private readonly names = new Map<string, boolean>();
  private s: Buffer = Buffer.alloc(0);
  private out: Buffer = Buffer.alloc(64 * 1024);
  private o = 0;
  private i = 0;
  private depth = 0;

  /**
   * `sensitive(key)`: whether values under that key must be redacted (secrets, personal data);
   * `namesSecret(name)`: whether a pair object's `name` or `key` gives its value such a name
   * (`{"name": "DB_PASSWORD", "value": …}`), which the general path redacts.
   */
  constructor(
    private readonly sensitive: (key: string) => boolean,
    private readonly namesSecret: (name: string) => boolean = () => false,
  ) {}

  /** The YAML of the JSON `text` for a value whose lines sit at `indent`, or undefined (see the class). */
  transcode(text: Buffer, indent: number, secrets: Iterable<string> = []): YamlBlock | undefined {
    const first = text[0];
    if (first !== OPEN_MAP && first !== OPEN_LIST) return undefined;
    for (const secret of secrets) if (text.includes(secret)) return undefined;
    if (this.out.length < text.length * 3 + 256) this.out = Buffer.alloc(text.length * 3 + 256);
    this.s = text;
    this.o = 0;
    this.i = 0;
    this.depth = 0;
    const ok = this.value(indent) && this.i === text.length;
    this.s = Buffer.alloc(0);
    return ok ? new YamlBlock(Buffer.from(this.out.subarray(0, this.o)), indent) : undefined;
  }

  private room(bytes: number): void {
    if (this.o + bytes <= this.out.length) return;
    const grown = Buffer.alloc(Math.max(this.out.length * 2, this.o + bytes));
    this.out.copy(grown, 0, 0, this.o);
    this.out = grown;
  }

  private ascii(text: string): void {
    this.room(text.length);
    for (let k = 0; k < text.length; k++) this.out[this.o++] = text.charCodeAt(k);
  }

  private spaces(count: number): void {
    this.room(count);
    for (let k = 0; k < count; k++) this.out[this.o++] = SPACE;
  }

  /** Copies `source[start, end)` to the output (room already made). */
  private copy(source: Buffer, start: number, end: number): void {
    if (end - start >= SMALL_COPY) {
      this.o += source.copy(this.out, this.o, start, end);
      return;
    }
    const { out } = this;
    let o = this.o;
    for (let k = start; k < end; k++) out[o++] = source[k] as number;
    this.o = o;
  }

  /** The end (closing quote) of the string whose opening quote is at `i`, or -1 when it is not simple. */
  private stringEnd(i: number): number {
    const { s } = this;
    for (let k = i + 1; k < s.length; k++) {
      const c = s[k] as number;
      if (c === QUOTE) return k;
      if (c < 0x20 || c === 0x5c) return -1;
    }
    return -1;
  }

  /** The entry of the key whose bytes are `s[start, end)`, or undefined when the cache is full. */
  private key(start: number, end: number): KeyEntry | undefined {
    const { s } = this;
    let hash = 0x811c9dc5;
    for (let k = start; k < end; k++) hash = Math.imul(hash ^ (s[k] as number), 0x01000193);
    const bucket = this.keys.get(hash);
    if (bucket) {
      for (const entry of bucket) if (sameBytes(entry.raw, s, start, end)) return entry;
    }
    if (this.keyCount >= KEY_CACHE_LIMIT) return undefined;
    const name = s.toString("utf8", start, end);
    const refused = name === "__proto__" || /^(?:0|[1-9]\d*)$/.test(name) || this.sensitive(name);
    const entry = {
      raw: Buffer.from(s.subarray(start, end)),
      yaml: refused ? null : Buffer.from(`${yamlString(name)}:`, "utf8"),
      names: namesItsValue(name),
    };
    if (bucket) bucket.push(entry);
    else this.keys.set(hash, [entry]);
    this.keyCount++;
    return entry;
  }

  private value(indent: number): boolean {
    const c = this.s[this.i];
    if (c === OPEN_MAP || c === OPEN_LIST) {
      const empty = this.s[this.i + 1] === (c === OPEN_MAP ? CLOSE_MAP : CLOSE_LIST);
      if (empty) {
        this.ascii(c === OPEN_MAP ? " {}\n" : " []\n");
        this.i += 2;
        return true;
      }
      this.ascii("\n");
      return c === OPEN_MAP ? this.object(indent, false) : this.array(indent);
    }
    if (c === QUOTE) return this.string(indent);
    return this.literal();
  }

  /** A string whose lines, for a literal block, sit at `indent`. */
  private string(indent: number): boolean {
    const start = this.i + 1;
    const end = this.stringEnd(this.i);
    if (end < 0) return false;
    this.i = end + 1;
    const { s } = this;
    const plain = isPlainBytes(s, start, end);
    if (!plain && needsEscape(s, start, end)) return false;
    if (!plain && isLiteralLine(s, start, end)) {
      this.ascii(" |-\n");
      this.spaces(indent);
      this.room(end - start + 1);
      this.copy(s, start, end);
      this.out[this.o++] = NEWLINE;
      return true;
    }
    this.room(end - start + 4);
    this.out[this.o++] = SPACE;
    if (!plain) this.out[this.o++] = QUOTE;
    this.copy(s, start, end);
    if (!plain) this.out[this.o++] = QUOTE;
    this.out[this.o++] = NEWLINE;
    return true;
  }

  /** `true`, `false`, `null` or a number in the form `JSON.stringify` writes it. */
  private literal(): boolean {
    const { s } = this;
    let end = this.i;
    let simple = true;
    for (; end < s.length; end++) {
      const c = s[end] as number;
      if (c === COMMA || c === CLOSE_MAP || c === CLOSE_LIST) break;
      if (!(c >= 0x30 && c <= 0x39) && !(c === DASH && end === this.i)) simple = false;
    }
    const length = end - this.i;
    const negative = s[this.i] === DASH;
    const digits = negative ? length - 1 : length;
    // An integer of up to 15 digits without a leading zero (and not -0) is written as it is.
    const lead = s[negative ? this.i + 1 : this.i];
    const integer = simple && digits >= 1 && digits <= 15 && (lead !== 0x30 || (!negative && digits === 1));
    if (!integer) {
      const token = s.toString("latin1", this.i, end);
      const canonical =
        token === "true" ||
        token === "false" ||
        token === "null" ||
        (token !== "" && Number.isFinite(Number(token)) && String(Number(token)) === token);
      if (!canonical) return false;
    }
    this.room(length + 2);
    this.out[this.o++] = SPACE;
    this.copy(s, this.i, end);
    this.out[this.o++] = NEWLINE;
    this.i = end;
    return true;
  }

  /** Whether the string at `i`, a `name` or `key` member's value, names a secret (answers kept per name). */
  private namesASecret(i: number): boolean {
    const end = this.stringEnd(i);
    if (end < 0) return false;
    const name = this.s.toString("utf8", i + 1, end);
    let named = this.names.get(name);
    if (named === undefined) {
      named = this.namesSecret(name);
      if (this.names.size < KEY_CACHE_LIMIT) this.names.set(name, named);
    }
    return named;
  }

  /** A non-empty object at `i`; with `dashed`, its first key goes on the list item's `- ` line. */
  private object(indent: number, dashed: boolean): boolean {
    if (++this.depth > MAX_DEPTH) return false;
    this.i++;
    const { s } = this;
    const names: KeyEntry[] = [];
    let many: Set<KeyEntry> | undefined;
    let first = true;
    for (;;) {
      if (s[this.i] !== QUOTE) return false;
      const end = this.stringEnd(this.i);
      if (end < 0 || s[end + 1] !== COLON) return false;
      const key = this.key(this.i + 1, end);
      if (!key?.yaml) return false;
      if (many) {
        if (many.has(key)) return false;
        many.add(key);
      } else {
        if (names.includes(key)) return false;
        names.push(key);
        if (names.length > SCAN_KEYS) many = new Set(names);
      }
      this.i = end + 2;
      if (first && dashed) {
        this.spaces(indent - 2);
        this.ascii("- ");
      } else this.spaces(indent);
      first = false;
      this.room(key.yaml.length);
      this.copy(key.yaml, 0, key.yaml.length);
      if (key.names && s[this.i] === QUOTE && this.namesASecret(this.i)) return false;
      if (!this.value(indent + 2)) return false;
      const c = s[this.i++];
      if (c === CLOSE_MAP) break;
      if (c !== COMMA) return false;
    }
    this.depth--;
    return true;
  }

  /** A non-empty array at `i`. */
  private array(indent: number): boolean {
    if (++this.depth > MAX_DEPTH) return false;
    this.i++;
    const { s } = this;
    for (;;) {
      const c = s[this.i];
      if (c === OPEN_MAP && s[this.i + 1] !== CLOSE_MAP) {
        if (!this.object(indent + 2, true)) return false;
      } else {
        this.spaces(indent);
        this.ascii("-");
        if (!this.value(indent + 2)) return false;
      }
      const next = s[this.i++];
      if (next === CLOSE_LIST) break;
      if (next !== COMMA) return false;
    }
    this.depth--;
    return true;
  }
}
