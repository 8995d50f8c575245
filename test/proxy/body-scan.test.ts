import { describe, expect, it } from "vitest";
import { FORMAT_CANDIDATE, SECRET_FORMATS } from "../../core/secrets/formats.js";

import { mayHoldPattern } from "../../proxy/redaction/patterns.js";
import { createRedactor, type Redactor } from "../../proxy/redaction/redactor.js";
import { cardRun, type ScanFinding, scanBody } from "../../proxy/redaction/scan.js";

const secretsOnly = () => createRedactor(undefined, false, true);
const withPii = () => createRedactor(undefined, true, true);

/** What the scan finds in `text` (keys judged and literal-block checks on, as the raw path runs it). */
function scan(text: string | Buffer, r: Redactor = secretsOnly(), literal = true): ScanFinding | undefined {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  return scanBody(bytes, r, { keys: true, literal });
}

/** Each rule: what it flags, and legal variants it lets through. */
const RULES: { finding: ScanFinding; flags: string[]; passes: string[]; r?: () => Redactor }[] = [
  {
    finding: "not-literal",
    flags: [
      "nul\u0000",
      "esc\u001b",
      "cr\r\n",
      "del\u007f",
      "c1\u0085",
      "ls\u2028",
      "bom\ufeff",
      "nbsp\uffff",
      "a \nb",
      "a\t\nb",
    ],
    passes: ["tab\tinside", "two\nlines", "empty\n\nline", "accents éàü, emoji 🙂", "€ 45,99"],
  },
  {
    finding: "secret-format",
    flags: [
      // (A connection string's `Pwd=` is a secret's name too: the scan meets that first.)
      ...SECRET_FORMATS.filter((format) => format.id !== "connection-string-password").map(
        (format) => `{"note":"${format.example.replace(/\n/g, "\\n")}"}`,
      ),
      "see https://ci:hunter2-broker@broker.example/",
      "sent with BeArEr abc123",
    ],
    passes: [
      "asia and akia in lower case",
      "http://host/path:8080",
      "bearers, bearer-bonds",
      "eyj",
      "sk_lived",
      "ops_",
      // A checked word (`SK`) without its secret after it, or inside a word (a base64 run).
      '{"qrCode":"MSKxMDAwMDA0NDoxNzMy","ref":"SK-2025"}',
      `xSK${"0a1b2c3d4e5f6789".repeat(2)}`,
      `SK${"0a1b2c3d4e5f6789".repeat(2)}0`,
      // `00` (a checked word after its leads) in times and amounts; a slug of its length (no capital);
      // one too short or too long.
      `{"date":"2025-03-01T10:00:00.0000000+01:00","amount":1500,"ref":"00${"ab-cd".repeat(8)}"}`,
      ` 00${"Qk7xMv2Lp9".repeat(4)}x`,
      ` 00${"Qk7xMv2Lp9".repeat(3)}`,
    ],
  },
  {
    finding: "card-candidate",
    flags: ["4111 1111 1111 1111", "4111-1111-1111-1111", "1234567890123", '{"n":12345678901234}'],
    passes: ["123456789012", "2025-09-30T11:20:55.8062172+02:00", "1234  5678  9012  3456", "12-34--56"],
  },
  {
    finding: "iban-candidate",
    flags: ["FR7630006000011234567890189", "ref AB12", "XXAB99"],
    passes: ["Ab12", "A1B2", "AB1C2", "ab12", "AB 12"],
  },
  {
    finding: "email",
    flags: ["write to jeanne@example.org"],
    passes: ["write to Jeanne"],
    r: withPii,
  },
  {
    finding: "secret-name",
    flags: [
      '{"access_token":"x"}',
      '{"Client-Secret" : 1}',
      "<password>x</password>",
      "Server=db;Uid=app;Pwd=Tr0ub4dor-3x;",
      "Mot de passe : x",
      "/v1/password/x",
      "<ns:password>x</ns:password>",
      "password=x",
      "api_key = x",
      "api_key: x",
      '{"p":"{\\"password\\":\\"x\\"}"}',
      "<user pin='1'/>",
      'log "password": x',
      "'api_key' => x",
      "run --password x",
      '{"cmd":"--token x"}',
      "cb%3Fclient_secret%3Dx",
    ],
    passes: [
      '{"continuationToken":"abc"}',
      '{"note":"a token in a value is fine","tokenish":1}',
      '{"state":"Authorized","code":"E1","statement":"x"}',
      "<a><user>x</user></a>",
      "a=1&country_code=FR",
      "the password was changed",
      'log "state": x',
      "run --page-size 20",
      "a password-less -- login",
      "cb%3Fpage%3D2",
    ],
  },
  {
    finding: "form-secret",
    flags: ["/cb?code=1", "a=1&STATE=x", "#Code=z"],
    passes: ["/cb?codes=1", "a=1&statement=x", "code is fine"],
  },
  {
    finding: "escaped-secret-key",
    flags: ['{"\\u0061ccess_token":1}', '{"a":"x\\ny", "\\u0070assword" : "z"}'],
    passes: ['{"a":"x\\ny"}', '{"\\u0061mount":1}', '{"note":"a\\"b"}'],
  },
];

describe("the body scan: each rule flags what the general path would redact, and lets the rest through", () => {
  for (const rule of RULES) {
    it(`${rule.finding}: flags`, () => {
      for (const text of rule.flags)
        expect(scan(text, (rule.r ?? secretsOnly)()), JSON.stringify(text)).toBe(rule.finding);
    });
    it(`${rule.finding}: lets legal variants through`, () => {
      for (const text of rule.passes)
        expect(scan(text, (rule.r ?? secretsOnly)()), JSON.stringify(text)).toBeUndefined();
    });
  }

  it("known-secret: flags a secret met earlier anywhere, lets other text through", () => {
    const r = secretsOnly();
    r.secrets.redact("sk_known_secret_1");
    expect(scan('{"note":"sk_known_secret_1"}', r)).toBe("known-secret");
    expect(scan('{"note":"sk_known_secret_2"}', r)).toBeUndefined();
  });

  it("without `literal`, what a literal block cannot hold is no finding (the JSON transcoder's scan)", () => {
    expect(scan("a \nb\u0000", secretsOnly(), false)).toBeUndefined();
  });

  it("finds each kind at the start, the middle and the end of a megabyte", () => {
    const filler = '{"id":8868440,"payer":{"city":"Lyon"},"amount":4599,"note":"Adhésion"},';
    const clean = filler.repeat(Math.ceil((1024 * 1024) / filler.length));
    expect(scan(clean)).toBeUndefined();
    const planted: [string, ScanFinding][] = [
      ['"client_secret":"x",', "secret-name"],
      ['"n":"4111 1111 1111 1111",', "card-candidate"],
      ['"n":"FR7630006000011234567890189",', "iban-candidate"],
      ['"\\u0061ccess_token":1,', "escaped-secret-key"],
      ['"x":"a","pass-word" : 1,', "secret-name"],
      [`"n":"${SECRET_FORMATS[1]?.example}",`, "secret-format"],
    ];
    for (const [text, finding] of planted) {
      for (const at of [0, clean.length / 2, clean.length]) {
        const cut = clean.lastIndexOf("{", at);
        const body = `${clean.slice(0, cut + 1)}${text}${clean.slice(cut + 1)}`;
        expect(scan(body), `${finding} at ${at}`).toBe(finding);
      }
    }
  });

  it("agrees with the shapes' candidates (FORMAT_CANDIDATE, mayHoldPattern) on random text", () => {
    const pieces = [
      "x",
      " ",
      "-",
      "é",
      "AK",
      "IA",
      "gh",
      "p_",
      "ey",
      "J",
      "://",
      "u:p@h",
      "bearer",
      "BEARER",
      "\t",
      "123",
      "4567",
      "FR",
      "76",
      "sk_",
      "live_",
      "npm_",
      "SG.",
      "xoxb-",
      "PRIVATE KEY",
      "@",
      ...SECRET_FORMATS.map((f) => f.example.slice(0, 6)),
    ];
    let seed = 28;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    let shapes = 0;
    const r = withPii();
    for (let round = 0; round < 20_000; round++) {
      let text = "";
      for (let k = 1 + Math.floor(random() * 8); k > 0; k--)
        text += pieces[Math.floor(random() * pieces.length)];
      const found = scan(text, r, false);
      const expected = mayHoldPattern(text, true);
      expect(found !== undefined, JSON.stringify(text)).toBe(expected);
      if (FORMAT_CANDIDATE.test(text)) {
        shapes++;
        expect(found, JSON.stringify(text)).toBeDefined();
      }
    }
    expect(shapes).toBeGreaterThan(1000);
  });

  it("finds a card-number run wherever it lies against the bytes the skipping reads (every 13th)", () => {
    // The rule read byte by byte: 13 digits, a single space or `-` allowed between two of them.
    const everyByte = (text: string): boolean => {
      let digits = 0;
      let separated = false;
      for (const c of text) {
        if (c >= "0" && c <= "9") {
          separated = false;
          if (++digits >= 13) return true;
        } else if ((c === " " || c === "-") && digits > 0 && !separated) separated = true;
        else {
          digits = 0;
          separated = false;
        }
      }
      return false;
    };
    const runs = ["1234567890123", "4111 1111 1111 1", "411-111-111-111-1", "123456789012", "1234 5678 9012"];
    let flagged = 0;
    for (const run of runs) {
      for (let before = 0; before <= 30; before++) {
        for (const pad of ["x", " ", "-", "  ", "9 "]) {
          const text = `${pad.repeat(before).slice(0, before)}${run}${"x".repeat(before % 7)}`;
          const expected = everyByte(text);
          if (expected) flagged++;
          expect(cardRun(Buffer.from(text, "latin1")), JSON.stringify(text)).toBe(expected);
        }
      }
    }
    expect(flagged).toBeGreaterThan(300);
    let seed = 13;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const alphabet = "0123456789 -x";
    let found = 0;
    for (let round = 0; round < 20_000; round++) {
      let text = "";
      for (let k = Math.floor(random() * 60); k > 0; k--) text += alphabet[Math.floor(random() * 13)];
      const expected = everyByte(text);
      if (expected) found++;
      expect(cardRun(Buffer.from(text, "latin1")), JSON.stringify(text)).toBe(expected);
    }
    expect(found).toBeGreaterThan(100);
  });

  it("judges a key by the quote before it however far back that quote is, and keys that come later", () => {
    const far = `{"note":"${"a".repeat(5000)}","a_token_name":1,"${"b".repeat(300)}","password":1}`;
    expect(scan(far)).toBe("secret-name");
    expect(scan(`{"note":"${"a".repeat(5000)}","continuationToken":1}`)).toBeUndefined();
    expect(scan(`${'"'.repeat(50)}x \\u0070assword":1`)).toBe("escaped-secret-key");
    expect(scan(`{"x":"${"\\n".repeat(50)}","\\u0070assword":1}`)).toBe("escaped-secret-key");
  });
});
