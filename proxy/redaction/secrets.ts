import { normalFieldName } from "../../core/secrets/names.js";
import { placeholderFor, WHOLE_PLACEHOLDER } from "../../core/secrets/placeholder.js";

/** Secrets shorter than this are replaced where they are named, but not searched for everywhere. */
const MIN_SCRUB_LENGTH = 8;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Replaces secrets by placeholders and remembers every secret it replaced, so that the same secret is
 * also replaced where it appears unnamed (echoed in an error text, in a URL). One book per recorder.
 */
export class SecretBook {
  private readonly known = new Map<string, string>();
  private readonly signing = new Map<string, string>();
  private readonly fresh: string[] = [];
  private pattern: RegExp | undefined;
  private stale = false;

  /** `learn: false` (replay) replaces named secrets without remembering them. */
  constructor(
    private readonly salt: string | undefined,
    private readonly learn = true,
  ) {}

  /**
   * The placeholder of `secret` (a placeholder or an empty value is returned as it is). `field` is the
   * name it was found under: the values of `signatureKey` fields are kept as notification signing keys.
   */
  redact(secret: string, field?: string): string {
    if (secret === "" || WHOLE_PLACEHOLDER.test(secret)) return secret;
    const known = this.known.get(secret);
    if (known && field === undefined) return known;
    const placeholder = known ?? placeholderFor(secret, this.salt);
    if (this.learn && field !== undefined && normalFieldName(field) === "signaturekey") {
      this.signing.set(secret, placeholder);
    }
    if (known) return known;
    if (this.learn && secret.length >= MIN_SCRUB_LENGTH) {
      this.know(secret, placeholder);
      this.fresh.push(secret);
    }
    return placeholder;
  }

  private know(secret: string, placeholder: string): void {
    this.known.set(secret, placeholder);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) this.known.set(encoded, placeholder);
    this.stale = true;
  }

  /** The secrets learned since the last call (the recording worker hands them to the log's redactor). */
  takeLearned(): string[] {
    return this.fresh.splice(0);
  }

  /** Learns secrets met elsewhere (by the recording worker), to scrub them here too, learning or not. */
  remember(secrets: Iterable<string>): void {
    for (const secret of secrets) {
      if (secret.length >= MIN_SCRUB_LENGTH && !this.known.has(secret)) {
        this.know(secret, placeholderFor(secret, this.salt));
      }
    }
  }

  /** Every secret met so far (and its URL-encoded form). */
  knownSecrets(): Iterable<string> {
    return this.known.keys();
  }

  /** Signing keys met so far (in `signatureKey` fields), each with its placeholder. */
  signingKeys(): ReadonlyMap<string, string> {
    return this.signing;
  }

  /** `text` with every secret met so far replaced by its placeholder. */
  scrub(text: string): string {
    if (this.known.size === 0 || text.length < MIN_SCRUB_LENGTH) return text;
    if (this.stale || !this.pattern) {
      const alternatives = [...this.known.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
      this.pattern = new RegExp(alternatives.join("|"), "g");
      this.stale = false;
    }
    this.pattern.lastIndex = 0;
    if (!this.pattern.test(text)) return text;
    return text.replace(this.pattern, (found) => this.known.get(found) ?? found);
  }
}
