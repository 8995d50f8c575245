import { describe, expect, it } from "vitest";
import { FORMAT_CANDIDATE, redactFormats, SECRET_FORMATS } from "../../core/secrets/formats.js";
import { CREDENTIAL_HEADERS, isCredentialHeader, isSecretName } from "../../core/secrets/names.js";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { redactSecretData, redactSecretText } from "../../core/secrets/text.js";
import { rawText } from "../../proxy/record/body-encoder.js";
import { redactBody, redactHeaders, redactJson, redactQuery } from "../../proxy/redaction/redact.js";
import { createRedactor, type Redactor } from "../../proxy/redaction/redactor.js";
import { scanBody } from "../../proxy/redaction/scan.js";

/** Whether the body scan sends `view` to the general path (keys judged, as the raw path does). */
const flagged = (view: string, r: Redactor) =>
  scanBody(Buffer.from(view, "utf8"), r, { keys: true, literal: false }) !== undefined;

const recorder = (): Redactor => createRedactor(undefined, false, true);
const text = (body: string, type: string, r = recorder()) => {
  const out = redactBody({ text: body }, type, r);
  return out && "text" in out ? out.text : "";
};
const P = /<secret:[0-9a-f]{16}>/;

describe("known secret formats (core/secrets/formats.ts)", () => {
  for (const format of SECRET_FORMATS) {
    it(`${format.id}: its example is found in text and replaced (${format.origin})`, () => {
      expect(FORMAT_CANDIDATE.test(`x ${format.example} y`)).toBe(true);
      const out = redactFormats(`before ${format.example} after`, (s) => placeholderFor(s));
      expect(out).toMatch(P);
      expect(out.startsWith("before ")).toBe(true);
      expect(out.endsWith(" after")).toBe(true);
      expect(out).not.toContain(format.example);
    });
  }

  it("names each format once: an id is what the docs and the redaction log call it", () => {
    const ids = SECRET_FORMATS.map((format) => format.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it("keeps look-alikes: too short, a public key, a URL without password, prose", () => {
    for (const kept of [
      "ghp_short and github_pat_x",
      "sk_live_ alone, rk_test_abc",
      "ASIA Pacific region and AKIA123",
      "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----",
      "see https://user@host.example/a and https://host.example/x:y@z",
      "a bearer of good news",
      "xoxb- nothing",
      // The providers' prefixes without the body their format gives, or with a body too short.
      "glpat-short and hf_tiny and sk-proj-abc",
      "dp.pt.abc, hvs.x, ya29.y, dapi123, LTAI12, NRAK-1, PMAK-1-2, sbp_12, pul-12, fo1_x, nfp_x, ntn_x",
      "AccountKey= and SharedAccessKey=;",
      "Password=<secret:0123456789abcdef>;",
      "at 12:AAh and 123456789:AAshort",
      "a Q~ b, AGE-SECRET-KEY-1",
      // A URL's user that reads as words or a slug, not a token; `EAA` starting a base64 run or a word.
      "https://assopay-contract-ci-runner@git.example/r and ssh://deploy_user_for_the_ci@h/x",
      `"logo": "EAAAAB${"CAAAAB".repeat(10)}+/AAAA==" and EAAssemblee2024`,
    ]) {
      expect(
        redactFormats(kept, () => "<X>"),
        kept,
      ).toBe(kept);
    }
  });
});

describe("secret names: exact names and names only forms make secret", () => {
  it("sig, otp, pin, session ids are secrets; pinned, shipping, signature_method are not", () => {
    for (const name of [
      "sig",
      "otp",
      "PIN",
      "totp",
      "X-Session-Id",
      "sessionId",
      "session_id",
      "PHPSESSID",
    ]) {
      expect(isSecretName(name, "field"), name).toBe(true);
    }
    for (const name of ["pinned", "shipping", "signature_method", "spin", "otpEnabled", "sessions"]) {
      expect(isSecretName(name, "field"), name).toBe(false);
    }
  });

  it("code and state are secrets in a query or form only; country_code and statement never", () => {
    expect([isSecretName("code", "form"), isSecretName("state", "form")]).toEqual([true, true]);
    expect([isSecretName("code", "field"), isSecretName("state", "field")]).toEqual([false, false]);
    for (const name of ["country_code", "statement", "zipCode", "stateCode"]) {
      expect(isSecretName(name, "form"), name).toBe(false);
    }
    const r = recorder();
    expect(redactQuery({ code: "c-1", country_code: "FR", statement: "m" }, r)).toEqual({
      code: placeholderFor("c-1"),
      country_code: "FR",
      statement: "m",
    });
    expect(redactJson({ state: "Authorized", code: "Error", pin: "1234" }, r)).toEqual({
      state: "Authorized",
      code: "Error",
      pin: placeholderFor("1234"),
    });
  });
});

describe("XML bodies, JSON in strings, every Set-Cookie pair", () => {
  it("XML: secret elements (CDATA, prefixed) and attributes go; other elements stay", () => {
    const xml = `<?xml version="1.0"?><a><user>jo</user><ns:password>pw-1</ns:password><client_secret><![CDATA[cs-1]]></client_secret><k api_key="ak-1" id="7"/><passwordHint>a pet</passwordHint></a>`;
    const out = text(xml, "application/xml");
    expect(out).toContain("<user>jo</user>");
    expect(out).toContain(`<ns:password>${placeholderFor("pw-1")}</ns:password>`);
    expect(out).toContain(`<![CDATA[${placeholderFor("cs-1")}]]>`);
    expect(out).toContain(`api_key="${placeholderFor("ak-1")}" id="7"`);
    expect(out).toContain("<passwordHint>a pet</passwordHint>");
    expect(text("<p>password</p>", "text/html")).toBe("<p>password</p>");
  });

  it("JSON held in a string is redacted as JSON; a string that only looks like it is kept as it was", () => {
    const r = recorder();
    const out = redactJson({ payload: JSON.stringify({ password: "pw-2", n: 1 }), note: "{not json}" }, r);
    expect(out).toEqual({
      payload: JSON.stringify({ password: placeholderFor("pw-2"), n: 1 }),
      note: "{not json}",
    });
    const kept = '{ "a": 1 }';
    expect(redactJson({ payload: kept }, r)).toEqual({ payload: kept });
    const asText = text(JSON.stringify({ x: JSON.stringify({ otp: "otp-3" }) }), "text/plain");
    expect(asText).toContain(placeholderFor("otp-3"));
    expect(asText).not.toContain("otp-3");
  });

  it("Set-Cookie: each cookie's value goes, a second pair and a comma-joined cookie too; attributes stay", () => {
    const out = redactHeaders(
      {
        "set-cookie": [
          "a=v1; Path=/; b=v2; HttpOnly",
          "c=v3; Expires=Wed, 21 Oct 2026 07:28:00 GMT, d=v4; Max-Age=60",
        ],
      },
      recorder(),
    );
    expect(out["set-cookie"]).toEqual([
      `a=${placeholderFor("v1")}; Path=/; b=${placeholderFor("v2")}; HttpOnly`,
      `c=${placeholderFor("v3")}; Expires=Wed, 21 Oct 2026 07:28:00 GMT, d=${placeholderFor("v4")}; Max-Age=60`,
    ]);
  });

  it("the fast paths decline what only the general path redacts: XML elements, form pairs, JSON in strings", () => {
    const r = recorder();
    for (const view of [
      "<a><password>x</password></a>",
      "a=1&pin=2",
      '{"p":"{\\"password\\":\\"x\\"}"}',
      "/cb?code=1",
      "key ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ]) {
      expect(flagged(view, r), view).toBe(true);
    }
    for (const view of [
      '{"state":"Authorized","code":"E1","statement":"x"}',
      "<a><user>x</user></a>",
      "a=1&country_code=FR",
    ]) {
      expect(flagged(view, r), view).toBe(false);
    }
    const big = `<a>${"x".repeat(600 * 1024)}<password>pw-big-1</password></a>`;
    expect(rawText(Buffer.from(big), r, 4)).toBeUndefined();
  });
});

describe("one redactor: the pairs' grammar and the credential headers, for cassettes and reports alike", () => {
  /** What the recorder writes for a text body, and what a report shows of the same text. */
  const both = (body: string) => [text(body, "text/plain"), redactSecretText(body)];
  const hidden = (body: string, secret: string) => {
    for (const out of both(body)) {
      expect(out, body).not.toContain(secret);
      expect(out, body).toContain(placeholderFor(secret));
    }
  };

  it("French secret names, a ?pwd= and a secret in a path segment are replaced", () => {
    hidden("mot_de_passe=Hunter2fr", "Hunter2fr");
    hidden('{"motDePasse": "Secr3t-fr"}', "Secr3t-fr");
    hidden("Mot de passe : Pa55-fr-1", "Pa55-fr-1");
    hidden("Mot de passe: Pa55-fr-2", "Pa55-fr-2");
    hidden("GET /login?user=jo&pwd=Pwd-9f8e7d", "Pwd-9f8e7d");
    hidden("POST https://receiver.example/hooks/secret/9f8e7d6c5b4a", "9f8e7d6c5b4a");
    hidden("Enter PIN: 4821", "4821");
    const r = recorder();
    expect(redactJson({ "Mot de passe": "Pa55-fr-3", motDePasse: "Pa55-fr-4" }, r)).toEqual({
      "Mot de passe": placeholderFor("Pa55-fr-3"),
      motDePasse: placeholderFor("Pa55-fr-4"),
    });
    expect(redactQuery({ pwd: "Pwd-1", mot_de_passe: "Mdp-1" }, r)).toEqual({
      pwd: placeholderFor("Pwd-1"),
      mot_de_passe: placeholderFor("Mdp-1"),
    });
    // The recorder's fast paths decline them, so the general path redacts them.
    for (const view of ['{"Mot de passe": "x"}', "Mot de passe: x", "/v1/password/x"]) {
      expect(flagged(view, r), view).toBe(true);
    }
  });

  it("keeps prose and paths that only look like pairs: a reason starting with `token: `, API paths", () => {
    for (const kept of [
      "token: the token URL answered 404 (no token endpoint), not the credentials",
      "password: see the vault for details",
      "GET /v5/organizations/secret-garden/forms/Event/gala/items",
      "POST /oauth2/token",
      "le mot de passe est changé",
    ]) {
      expect(both(kept), kept).toEqual([kept, kept]);
    }
    hidden("token: s3cr3t-tok-42 then more words", "s3cr3t-tok-42");
  });

  it("one list of authentication schemes: the credentials after any of them are replaced, the scheme kept", () => {
    hidden("sent Authorization: HMAC k7Qx9Lm2Pz4Rt8Vw and more", "k7Qx9Lm2Pz4Rt8Vw");
    hidden("Authorization: SSWS 00Qk7xMv2Lp9-short", "00Qk7xMv2Lp9-short");
    expect(redactSecretData({ authorization: "Bot Mz-bot-secret-42" }).authorization).toBe(
      `Bot ${placeholderFor("Mz-bot-secret-42")}`,
    );
  });

  it("keeps the prose after a secret-named flag, and still replaces a flag's value", () => {
    for (const kept of [
      "assopay notify: --url-secret must be a part of --to",
      "--key KEY or --url-secret SECRET is required",
      "pass --password only with --user",
    ]) {
      expect(both(kept), kept).toEqual([kept, kept]);
    }
    hidden("run --url-secret s3cr3t-path-7 now", "s3cr3t-path-7");
    hidden("curl --password hunter2xyz -u jo", "hunter2xyz");
    hidden("--client-secret Wordsonly", "Wordsonly");
  });

  it("one list of credential headers: the recorder's headers and a report's evidence", () => {
    const r = recorder();
    for (const name of [...CREDENTIAL_HEADERS, "x-goog-api-key", "x-access-token"]) {
      expect(isCredentialHeader(name), name).toBe(true);
      const value = `k=cred-${name}-0123456789`;
      const recorded = redactHeaders({ [name]: value }, r)[name];
      expect(String(recorded), name).not.toContain("0123456789");
      const shown = redactSecretData({ headers: { [name]: value } }).headers[name];
      expect(shown, name).not.toContain("0123456789");
    }
    for (const name of ["content-type", "x-request-id", "x-signature-method", "keyboard"]) {
      expect(isCredentialHeader(name), name).toBe(false);
    }
  });
});
