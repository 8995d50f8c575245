/** What `--json` prints once listening: one line of JSON, for scripts that start record or replay. */
export interface StartLine {
  /** `record` or `replay`. */
  command: "record" | "replay";
  /** The base URL to point the client at. */
  url: string;
  port: number;
  /** The address bound. */
  host: string;
  /**
   * The CA certificate to trust when the forward proxy intercepts TLS; null while it does not.
   * (NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, SSL_CERT_FILE.)
   */
  caPath: string | null;
  /** Anything else the command reports (cassette, interactions, notification URL). */
  [detail: string]: unknown;
}

/**
 * The start line as written: JSON and a newline.
 * @example startLine({ command: "replay", url: "http://127.0.0.1:8471", port: 8471, host: "127.0.0.1", caPath: null })
 */
export function startLine(line: StartLine): string {
  return `${JSON.stringify(line)}\n`;
}
