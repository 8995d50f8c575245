/**
 * The cassette format `assopay-cassette/1`, as TypeScript types. `docs/cassettes.md` describes it for
 * people; `cassette.schema.json` checks it on load.
 */

/** The format name and version written in every header. A reader refuses any other. */
export const CASSETTE_FORMAT = "assopay-cassette/1";

/** Content codings that are stored decoded and re-applied on replay. */
export type ContentCoding = "gzip" | "deflate" | "br";

/**
 * A stored body, decoded from its transfer compression:
 * - `json`: the body parsed, written as a YAML map; restored with `JSON.stringify` (only chosen when that
 *   gives the recorded bytes back exactly);
 * - `text`: UTF-8 text, restored byte for byte;
 * - `base64`: anything else (attached files), restored byte for byte.
 * `encoding` names the `content-encoding` the bytes had on the wire. A `note` says why compressed bytes
 * were kept as received (they decode past the bound on a decoded body).
 */
export type StoredBody =
  | { json: unknown; encoding?: ContentCoding }
  | { text: string; encoding?: ContentCoding }
  | { base64: string; encoding?: ContentCoding; note?: string };

/** Header names in lower case; a header sent several times (`set-cookie`) is a list. */
export type StoredHeaders = Record<string, string | string[]>;

/** Decoded query parameters, names as sent; a repeated name (`states=A&states=B`) is a list. */
export type StoredQuery = Record<string, string | string[]>;

export interface StoredRequest {
  method: string;
  /** The path as the client sent it, percent-encoding included, without the query. */
  path: string;
  query?: StoredQuery;
  headers: StoredHeaders;
  body?: StoredBody;
}

export interface StoredResponse {
  status: number;
  headers: StoredHeaders;
  body?: StoredBody;
}

/** What the recorder learnt about a notification the service sent to the proxy's notification path. */
export interface NotificationRecord {
  signature: {
    /** The header that carried it (`x-ha-signature`), or null when the notification was unsigned. */
    header: string | null;
    /** true / false once checked against a known signing key; null when no key was known. */
    verified: boolean | null;
    note?: string;
  };
  /** The integrator's receiver it was forwarded to, if any. */
  forwardedTo?: string;
  forwardStatus?: number;
  forwardError?: string;
}

/** One exchange. A notification document has `notification`; its request is the one the service sent. */
export interface Interaction {
  id: number;
  recordedAt: string;
  request: StoredRequest;
  response: StoredResponse;
  notification?: NotificationRecord;
}

/** How the secrets and personal data of a cassette were replaced; replay applies the same to requests. */
export interface RedactionInfo {
  /** Placeholders are `<secret:` + 16 hex digits of HMAC-SHA256 + `>`. */
  secrets: "hmac-sha256";
  /** Whether a salt of the user's was used (replay then needs the same salt to match requests). */
  salted: boolean;
  /** Whether payer names and e-mails were replaced by fakes (`--redact-pii`). */
  pii: boolean;
}

/** Where a matching rule applies: a JSON body path (or form field), a query parameter, a header. */
export type MatchTarget = "body" | "query" | "header";

/**
 * One matching rule (`--ignore`, `--match`): `ignore` leaves the field out of matching, `type` compares
 * its JSON type only, `regex` accepts any value the pattern matches.
 */
export interface MatchRule {
  /** `body.metadata.memberId` (`*` for any key or index), `query.ts`, `header.x-request-id`. */
  field: string;
  rule: "ignore" | "type" | "regex";
  /** The pattern of a `regex` rule, without slashes. */
  pattern?: string;
  /** The flags of a `regex` rule (`i`, ...). */
  flags?: string;
}

export interface CassetteHeader {
  format: typeof CASSETTE_FORMAT;
  /** The service recorded; replay rewrites its origin in responses to its own (unless told to keep it). */
  upstream: string;
  recordedAt: string;
  /** `assopay-contract@<version>`. */
  tool: string;
  redaction: RedactionInfo;
  /** Matching rules given when recording; replay applies them without flags. */
  matching?: MatchRule[];
}

/** Where a document starts in its file (1-based line of its `---`). */
export interface DocumentSource {
  file: string;
  line: number;
}

export interface LoadedInteraction extends Interaction {
  readonly source: DocumentSource;
}

/** Something skipped in a cassette, at the line of its document. */
export interface CassetteWarning extends DocumentSource {
  message: string;
}

/** A cassette as loaded: header, interactions in file order, and what was skipped. */
export interface Cassette {
  readonly file: string;
  readonly header: CassetteHeader;
  readonly interactions: readonly LoadedInteraction[];
  readonly warnings: readonly CassetteWarning[];
}
