import { AssopayError } from "../core/errors.js";

/** The body size limit when none is given: 50 MB. */
export const DEFAULT_MAX_BODY_BYTES = 50 * 1024 * 1024;

/** How to raise the proxy's body limit, said where a body over it is refused: its flag and its option. */
export const MAX_BODY_REMEDY = "raise the limit with --max-body (maxBodyBytes) if this is expected";

/** Checks a port (0 = any free port). */
export function checkPort(port: number | undefined, fallback: number): number {
  const value = port ?? fallback;
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new AssopayError("usage", `port must be a whole number from 0 to 65535, got ${String(port)}`, {
      hint: "use port 0 to take any free port",
    });
  }
  return value;
}

/** Checks a body size limit in bytes. */
export function checkMaxBody(bytes: number | undefined): number {
  const value = bytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(value) || value <= 0) {
    throw new AssopayError(
      "usage",
      `the body size limit must be a positive whole number of bytes, got ${String(bytes)}`,
      {
        hint: `for example ${DEFAULT_MAX_BODY_BYTES} (50 MB)`,
      },
    );
  }
  return value;
}

/** Parses an http(s) URL option. */
export function checkHttpUrl(text: string | URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(String(text));
  } catch {
    throw new AssopayError(
      "usage",
      `${what} must be an absolute http:// or https:// URL, got "${String(text)}"`,
      {
        hint: `for example ${what} http://127.0.0.1:8080`,
      },
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AssopayError("usage", `${what} must use http:// or https://, got "${url.protocol}"`, {
      hint: `for example ${what} https://api.helloasso-sandbox.com`,
    });
  }
  if (url.search || url.hash) {
    throw new AssopayError("usage", `${what} must not carry a query or a fragment, got "${String(text)}"`, {
      hint: "give only the scheme, host, port and an optional base path",
    });
  }
  return url;
}
