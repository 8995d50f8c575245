import { describe, expect, it } from "vitest";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { recorder, text } from "./support/redaction.js";

/**
 * Secrets as people write them in free text (a log line, a config file, a JSON string): pairs quoted or
 * not, URLs with their query, tokens of providers an association's site is wired to. Each rule with the
 * look-alikes it must keep (`redaction-rules.test.ts` holds the others).
 */

describe("secrets as people write them in any text, and their look-alikes", () => {
  it("URLs in any text: secret query and fragment values go (OAuth's code and state, Firebase's auth), the rest of the URL stays", () => {
    const r = recorder();
    const urls = {
      "https://example.org/cb?access_token=url-token-1&page=2": ["url-token-1"],
      "https://example.org/cb?x=1&api_key=url-key-1": ["url-key-1"],
      "https://db.firebaseio.com/.json?auth=url-auth-1": ["url-auth-1"],
      "https://example.org/cb?code=url-code-1&state=url-state-1": ["url-code-1", "url-state-1"],
      "https://example.org/cb#access_token=url-frag-1": ["url-frag-1"],
    };
    for (const [url, secrets] of Object.entries(urls)) {
      for (const [type, body] of [
        ["text/plain", `visit ${url} now`],
        ["text/plain", url],
        ["application/json", JSON.stringify({ note: `visit ${url}` })],
      ] as const) {
        const out = text(body, type, r);
        for (const secret of secrets) expect(out, `${url} in ${type}`).toContain(placeholderFor(secret));
        expect(out, `${url} in ${type}`).toContain(url.slice(0, url.search(/[?#]/) + 1));
      }
    }
    // Other names stay, in a URL or a JSON value; `code` and `auth` are secrets in a URL only.
    const kept = [
      "visit https://example.org/p?page=2&sortOrder=Asc now",
      "https://example.org/p?continuationToken=abc&pageSize=20",
      '{"code":"E1","auth":"basic","state":"Authorized"}',
    ];
    for (const body of kept) expect(text(body, "text/plain", r), body).toBe(body);
  });

  it("Okta, Mailchimp and Mattermost secrets in any text; look-alikes of other shapes stay", () => {
    const okta = `00${"Qk7xMv2Lp9Wn4Rt8Zb1C".repeat(2)}`;
    const mailchimp = `${"0a1b2c3d4e5f6789".repeat(2)}-us12`;
    const hook = `https://chat.example.org/hooks/${"k3m9x1q7w5ab".repeat(2)}zz`;
    const out = text(`okta SSWS ${okta}; list key ${mailchimp}; post to ${hook} now`, "text/plain");
    for (const secret of [okta, mailchimp, hook]) expect(out).not.toContain(secret);
    const kept = [
      `ref 00${"ab-cd".repeat(8)}`, // a slug of a token's length, one case only
      "at 10:00 for 1500 €, order 10000049",
      `${"0a1b2c3d4e5f6789".repeat(2)} and plus-us12`, // hex, then the data centre apart
      "see https://example.org/hooks/release-notes-of-the-gala", // a readable hook path
    ];
    for (const body of kept) expect(text(body, "text/plain"), body).toBe(body);
  });

  it("secret-named pairs as people write them: quoted names and values, =>, :=, flags, elements, encoded; the same shapes of other names stay", () => {
    const r = recorder();
    const written: Record<string, [before: string, after: string]> = {
      yaml: ["token: ", '"pair-yaml-1"'],
      single: ["token: ", "'pair-single-1'"],
      env: ["export AWS_SECRET_ACCESS_KEY=", '"pair-env-1"'],
      json: ['"api_key": ', '"pair-json-1"'],
      python: ["'password': ", "'pair-py-1'"],
      ruby: ["password => ", '"pair-ruby-1"'],
      go: ["secret := ", '"pair-go-1"'],
      backquote: ["apiKey: ", "`pair-back-1`"],
      flag: ["--password ", "pair-flag-1"],
      element: ["<wsse:Password>", "pair-element-1</wsse:Password>"],
      encoded: ["cb%3Fclient_secret%3D", "pair-encoded-1%26next%3D1"],
    };
    for (const [shape, [before, after]] of Object.entries(written)) {
      const value = (after.match(/pair-[a-z]+-1/) ?? [""])[0];
      for (const type of ["text/plain", "application/json"]) {
        const body =
          type === "text/plain" ? `log ${before}${after} end` : JSON.stringify({ note: `${before}${after}` });
        const out = text(body, type, r);
        const read = type === "text/plain" ? out : (JSON.parse(out) as { note: string }).note;
        // Only the value goes: the name, its quotes and the separator stay.
        expect(read, `${shape} in ${type}`).toBe(
          `${type === "text/plain" ? "log " : ""}${before}${after.replace(value, placeholderFor(value))}${type === "text/plain" ? " end" : ""}`,
        );
      }
    }
    // The same shapes under names that are no secret's, prose with dashes, and a compact JSON text's
    // keys stay as they were.
    const kept = [
      'state: "Processed"',
      "'formSlug' => 'gala-annuel'",
      "--page-size 20",
      "<name>Gala</name>",
      "cb%3Fpage%3D2",
      "a well-known -- and plain -- text",
      '{"note":"state: "ok""}',
    ];
    for (const body of kept) expect(text(body, "text/plain", r), body).toBe(body);
  });
});
