/**
 * Redaction of `name=value` lists and of URLs: form bodies, query strings, fragments, and the URLs that
 * headers (`Location`, `Link`, `Referer`) and log lines carry. Values are judged by their names (the one
 * list of `secrets.ts`), then scrubbed; every other byte stays as it was.
 */
import { formValue, type Redactor, scrubText } from "./redactor.js";

function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function encodeFormValue(value: string): string {
  return encodeURIComponent(value).replace(/%3C/g, "<").replace(/%3E/g, ">").replace(/%3A/g, ":");
}

/**
 * `a=1&client_secret=…` (a form body, a query string, a fragment): named secrets and personal fields
 * replaced, other values scrubbed, other bytes kept as they were.
 *
 * @example redactFormText("a=1&token=abc", r) // "a=1&token=<secret:…>"
 */
export function redactFormText(text: string, r: Redactor): string {
  return text
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return scrubText(pair, r);
      const name = decodeFormComponent(pair.slice(0, eq));
      const raw = pair.slice(eq + 1);
      const value = decodeFormComponent(raw);
      const replaced = formValue(name, value, r);
      if (replaced === value) return `${pair.slice(0, eq + 1)}${scrubText(raw, r)}`;
      return `${pair.slice(0, eq + 1)}${encodeFormValue(replaced)}`;
    })
    .join("&");
}

/**
 * A URL (absolute or a path) with the values of its query and fragment redacted as form fields, and the
 * rest scrubbed. A fragment without `=` is scrubbed as text.
 *
 * @example redactUrl("https://a.example/cb#access_token=abc&state=1", r) // "https://a.example/cb#access_token=<secret:…>&state=1"
 */
export function redactUrl(url: string, r: Redactor): string {
  const hash = url.indexOf("#");
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? undefined : url.slice(hash + 1);
  const question = beforeHash.indexOf("?");
  const base = question < 0 ? beforeHash : beforeHash.slice(0, question);
  let out = scrubText(base, r);
  if (question >= 0) out += `?${redactFormText(beforeHash.slice(question + 1), r)}`;
  if (fragment !== undefined) {
    out += `#${fragment.includes("=") ? redactFormText(fragment, r) : scrubText(fragment, r)}`;
  }
  return out;
}

/** `<url>; rel="next", <url>; …` (a `Link` header): each URL redacted, the parameters scrubbed. */
export function redactLinks(value: string, r: Redactor): string {
  return scrubText(
    value.replace(/<([^>]*)>/g, (_, url: string) => `<${redactUrl(url, r)}>`),
    r,
  );
}

/** A URL or a request target with a query or fragment, in free text (a log line): `/p?token=…`. */
const URL_IN_TEXT = /[^\s"'<>]*[?#][^\s"'<>]*/g;

/**
 * A line for people (a log message, an error's text) with the URLs in it redacted as URLs and the rest
 * scrubbed: what the recorder prints goes through the redactor that writes its cassette.
 *
 * @example redactLogText("GET /p?access_token=abc → 502", r) // "GET /p?access_token=<secret:…> → 502"
 */
export function redactLogText(text: string, r: Redactor): string {
  return scrubText(
    text.replace(URL_IN_TEXT, (url) => redactUrl(url, r)),
    r,
  );
}
