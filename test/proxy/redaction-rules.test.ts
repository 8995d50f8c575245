import { describe, expect, it } from "vitest";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import type { ProxyEvent } from "../../proxy/events.js";
import { redactEvents } from "../../proxy/redaction/log.js";
import { redactBody, redactHeaders, redactJson, redactQuery } from "../../proxy/redaction/redact.js";
import { createRedactor } from "../../proxy/redaction/redactor.js";
import { breakLuhn, Planted } from "./support/planted.js";
import { recorder, text } from "./support/redaction.js";

describe("each redaction rule replaces what it names and keeps its legal variants", () => {
  it("card numbers: Luhn-valid ones go, a 16-digit order id failing Luhn and a timestamp stay", () => {
    const p = new Planted();
    const card = p.card("card");
    const spaced = p.card("spaced", " ");
    const order = breakLuhn(p.card("order"));
    const out = text(`card ${card}, ${spaced}; order ${order}; at 1700000000000`, "text/plain");
    expect(out).not.toContain(card);
    expect(out).not.toContain(spaced);
    expect(out).toContain(placeholderFor(card));
    expect(out).toContain(`order ${order}`);
    expect(out).toContain("1700000000000");
  });

  it("IBANs: checksum-valid ones go, one with a bad checksum stays", () => {
    const p = new Planted();
    const iban = p.iban("iban");
    const bad = `${iban.slice(0, 2)}${iban[2] === "9" ? "0" : "9"}${iban.slice(3)}`;
    const out = redactJson({ iban, other: bad, code: "FR12ABCD" }, recorder()) as Record<string, string>;
    expect(out.iban).toBe(placeholderFor(iban));
    expect(out.other).toBe(bad);
    expect(out.code).toBe("FR12ABCD");
  });

  it("JWTs and bearer credentials in any text; lone base64 and prose about bearer tokens stay", () => {
    const jwt = new Planted().jwt("jwt");
    const out = text(
      `token ${jwt}; use Bearer abc123def456ghi; Bearer authentication applies; eyJhbGciOiJIUzI1NiJ9 alone`,
      "text/html",
    );
    expect(out).not.toContain(jwt);
    expect(out).not.toContain("abc123def456ghi");
    expect(out).toContain("Bearer authentication applies");
    expect(out).toContain("eyJhbGciOiJIUzI1NiJ9 alone");
  });

  it("secret fields by the ending of their names, any value type; tokenized, keyboard, tokenType, continuationToken stay", () => {
    const value = {
      "\u0061ccess_token": "escaped-key-value",
      token: "generic-token-1",
      webhookSecret: "prefixed-secret-1",
      password: 12345678,
      isPassword: true,
      credentials: { user: "u", pass: ["p-a-s-s-1", 7] },
      tokenized: "kept-1",
      keyboard: "azerty",
      tokenType: "Bearer",
      token_type: "bearer",
      continuationToken: "cursor-123456",
      secretary: "kept-2",
      count: 12345678,
    };
    const out = redactJson(structuredClone(value), recorder()) as Record<string, unknown>;
    expect(out.access_token).toBe(placeholderFor("escaped-key-value"));
    expect(out.token).toBe(placeholderFor("generic-token-1"));
    expect(out.webhookSecret).toBe(placeholderFor("prefixed-secret-1"));
    expect(out.password).toBe(placeholderFor("12345678"));
    expect(out.isPassword).toBe(placeholderFor("true"));
    expect(out.credentials).toEqual({
      user: placeholderFor("u"),
      pass: [placeholderFor("p-a-s-s-1"), placeholderFor("7")],
    });
    for (const kept of [
      "tokenized",
      "keyboard",
      "tokenType",
      "token_type",
      "continuationToken",
      "secretary",
    ] as const) {
      expect(out[kept], kept).toBe(value[kept]);
    }
    expect(out.count).toBe(12345678);
  });

  it("JSON kept as text (pretty, escaped keys, text/plain): every value type, other bytes kept", () => {
    const body =
      '{\n  "\\u0070assword": 987654321,\n  "auth": {"client_secret": "cs-value-1"},\n  "tokenized": 5,\n  "name": "x"\n}';
    for (const type of ["application/json", "text/plain"]) {
      const out = text(body, type);
      expect(out).not.toContain("987654321");
      expect(out).not.toContain("cs-value-1");
      expect(out).toContain('"tokenized": 5,\n  "name": "x"\n}');
      expect(JSON.parse(out)).toMatchObject({ password: placeholderFor("987654321") });
    }
    expect(text("just prose, no JSON here", "text/plain")).toBe("just prose, no JSON here");
  });

  it("credential headers by name; ordinary headers stay", () => {
    const out = redactHeaders(
      {
        "x-access-token": "h-token-value-1",
        "private-token": "h-token-value-2",
        "x-vendor-key": "h-key-value-3",
        "x-client-secret": "h-secret-value-4",
        "x-request-id": "req-1234567",
        "x-tokenized": "kept-value",
        accept: "application/json",
      },
      recorder(),
    );
    expect(out["x-access-token"]).toBe(placeholderFor("h-token-value-1"));
    expect(out["private-token"]).toBe(placeholderFor("h-token-value-2"));
    expect(out["x-vendor-key"]).toBe(placeholderFor("h-key-value-3"));
    expect(out["x-client-secret"]).toBe(placeholderFor("h-secret-value-4"));
    expect(out).toMatchObject({
      "x-request-id": "req-1234567",
      "x-tokenized": "kept-value",
      accept: "application/json",
    });
  });

  it("Location and Link: secret query and fragment values go, ordinary parameters stay", () => {
    const out = redactHeaders(
      {
        location:
          "https://app.example/cb?state=xyz&page=2&country_code=FR&code_verifier=cv-value-1#access_token=frag-token-1&expires_in=3600",
        link: '<https://api.example/items?pageIndex=2&api_key=link-key-1>; rel="next"',
      },
      recorder(),
    );
    expect(out.location).toBe(
      `https://app.example/cb?state=${placeholderFor("xyz")}&page=2&country_code=FR&code_verifier=${placeholderFor("cv-value-1")}#access_token=${placeholderFor("frag-token-1")}&expires_in=3600`,
    );
    expect(out.link).toBe(
      `<https://api.example/items?pageIndex=2&api_key=${placeholderFor("link-key-1")}>; rel="next"`,
    );
  });

  it("query and form values by name; ordinary parameters stay", () => {
    const r = recorder();
    // OAuth's `state` is a secret in a query (issue 24); a name merely ending like it is not.
    expect(redactQuery({ pageSize: "20", token: "q-token-1", state: "ok", statement: "s1" }, r)).toEqual({
      pageSize: "20",
      token: placeholderFor("q-token-1"),
      state: placeholderFor("ok"),
      statement: "s1",
    });
    expect(text("a=1&secret=f-secret-1&keyboard=qwerty", "application/x-www-form-urlencoded", r)).toBe(
      `a=1&secret=${encodeURIComponent(placeholderFor("f-secret-1")).replace(/%3C/g, "<").replace(/%3E/g, ">").replace(/%3A/g, ":")}&keyboard=qwerty`,
    );
  });

  it("secret-named pairs in any text: a JSON string, a header, a log line, after an auth scheme; other pairs, and escapes, stay", () => {
    const r = recorder();
    const out = redactJson(
      { note: "deploy with DB_PASSWORD=pair-pass-1 today", log: "log: client_secret=pair-secret-1" },
      r,
    ) as Record<string, string>;
    expect(out.note).toBe(`deploy with DB_PASSWORD=${placeholderFor("pair-pass-1")} today`);
    expect(out.log).toBe(`log: client_secret=${placeholderFor("pair-secret-1")}`);
    // An npmrc line: the name follows a colon.
    const npmrc = text("//registry.npmjs.org/:_authToken=pair-npm-1\n", "text/plain", r);
    expect(npmrc).toBe(`//registry.npmjs.org/:_authToken=${placeholderFor("pair-npm-1")}\n`);
    const headers = redactHeaders({ "x-client-note": "sent Authorization: Basic cGFpcjpwYXNzLTE=" }, r);
    expect(headers["x-client-note"]).toBe(`sent Authorization: Basic ${placeholderFor("cGFpcjpwYXNzLTE=")}`);
    // Pairs of other names stay, and a value never takes the backslash of a JSON escape with it.
    const kept = { note: "size=3, at: https://example.org/a?b=c, tier: 10" };
    expect(redactJson(kept, r)).toEqual(kept);
    const escaped = text('{"note":"password=pair-pass-2\\"q\\" ok"}', "text/plain", r);
    expect(JSON.parse(escaped)).toEqual({ note: `password=${placeholderFor("pair-pass-2")}"q" ok` });
  });

  it("multipart: secret-named parts and secrets in textual parts (files too) go, ordinary parts and text stay", () => {
    const part = (name: string, value: string, extra = "") =>
      `--B\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\n${value}\r\n`;
    const body = `${part("password", "mp-pass-1")}${part("title", "Gala 2026")}${part("file", "binary-ish size=3 token=mp-file-1", '; filename="a.bin"')}--B--\r\n`;
    const out = redactBody(
      { base64: Buffer.from(body).toString("base64") },
      "multipart/form-data; boundary=B",
      recorder(),
    );
    const decoded = out && "base64" in out ? Buffer.from(out.base64, "base64").toString() : "";
    expect(decoded).not.toContain("mp-pass-1");
    expect(decoded).toContain(placeholderFor("mp-pass-1"));
    expect(decoded).toContain("Gala 2026");
    // A textual file is the user's own data: kept, but a secret named in it goes, as in any text.
    expect(decoded).toContain(`binary-ish size=3 token=${placeholderFor("mp-file-1")}`);
  });

  it("with --redact-pii, phone numbers and e-mails in text get fakes; without it they stay", () => {
    const value = { phone: "+33 6 12 34 56 78", note: "write to jean@mail.test", mobilePhone: 33612345678 };
    const plain = redactJson(structuredClone(value), recorder(false));
    expect(plain).toEqual(value);
    const pii = redactJson(structuredClone(value), recorder(true)) as typeof value;
    expect(pii.phone).toMatch(/^\+\d\d \d \d\d \d\d \d\d \d\d$/);
    expect(pii.phone).not.toBe(value.phone);
    expect(pii.note).toMatch(/^write to [a-z]+@example\.com$/);
    expect(typeof pii.mobilePhone).toBe("number");
    expect(pii.mobilePhone).not.toBe(value.mobilePhone);
    // stable: the same value gives the same fake
    expect((redactJson(structuredClone(value), recorder(true)) as typeof value).phone).toBe(pii.phone);
  });

  it("log lines: secret query values go, the rest of the line stays", () => {
    const seen: ProxyEvent[] = [];
    const sink = redactEvents((e) => seen.push(e), createRedactor(undefined, false, false));
    sink({
      kind: "upstream-error",
      message: "GET /fail?pageSize=20&access_token=log-token-1 → 502: upstream closed",
    });
    expect(seen[0]?.message).toBe(
      `GET /fail?pageSize=20&access_token=${placeholderFor("log-token-1")} → 502: upstream closed`,
    );
  });

  it("placeholders are stable: a recorder and a replay redactor give the same one", () => {
    const a = redactQuery({ token: "stable-token-1" }, recorder());
    const b = redactQuery({ token: "stable-token-1" }, createRedactor(undefined, false, false));
    expect(a).toEqual(b);
  });
});
