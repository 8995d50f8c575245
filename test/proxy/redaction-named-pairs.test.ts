import { describe, expect, it } from "vitest";
import { placeholderFor } from "../../core/secrets/placeholder.js";
import { JsonToYaml } from "../../proxy/cassette/json-yaml.js";
import { asFieldName } from "../../proxy/redaction/named-pairs.js";
import { redactBody } from "../../proxy/redaction/redact.js";
import { isSensitiveField } from "../../proxy/redaction/redactor.js";
import { recorder, text } from "./support/redaction.js";

/** A JSON body as the recorder writes it when it keeps it as a map. */
const asMap = (value: unknown, r = recorder()): string => {
  const out = redactBody({ json: structuredClone(value) }, "application/json", r);
  return JSON.stringify(out && "json" in out ? out.json : undefined);
};

/** A JSON body as the recorder writes it when it keeps it as text (pretty-printed, say). */
const asText = (value: unknown, r = recorder()): string =>
  text(JSON.stringify(value, null, 2), "application/json", r);

/**
 * Pair objects: a name and its value side by side, as HAR files list headers, Kubernetes and CI files
 * their variables, Postman and AWS their keys. The value is redacted as a field of that name would be.
 */
describe("objects that name their value", () => {
  it("replaces the value a secret name gives, in JSON kept as a map or as text, whatever the keys' case or order", () => {
    const pairs: [unknown, string][] = [
      [
        { log: { entries: [{ request: { headers: [{ name: "Authorization", value: "Bearer har-1" }] } }] } },
        "har-1",
      ],
      [{ spec: { env: [{ name: "DB_PASSWORD", value: "k8s-pw-1" }] } }, "k8s-pw-1"],
      [{ Tags: [{ Key: "api_key", Value: "aws-key-1" }] }, "aws-key-1"],
      [{ variable: [{ key: "client_secret", value: "postman-1", type: "string" }] }, "postman-1"],
      [[{ value: "first-1", name: "password" }], "first-1"],
      [{ params: [{ name: "access_token", value: 12345678 }] }, "12345678"],
      [
        { customFields: [{ id: 3, name: "Access token", type: "TextInput", answer: "field-token-1" }] },
        "field-token-1",
      ],
    ];
    for (const [body, secret] of pairs) {
      for (const [path, written] of [
        ["map", asMap(body)],
        ["text", asText(body)],
      ] as const) {
        expect(written, `${path}: ${JSON.stringify(body)}`).not.toContain(secret);
        expect(written, `${path}: ${JSON.stringify(body)}`).toContain(placeholderFor(secret).slice(0, 8));
      }
    }
  });

  it("fakes the value a personal name gives with --redact-pii, and keeps it without", () => {
    const body = { fields: [{ name: "email", value: "jeanne.martin@mail.example" }] };
    expect(asMap(body, recorder(true))).not.toContain("jeanne.martin@mail.example");
    expect(asMap(body)).toContain("jeanne.martin@mail.example");
  });

  it("keeps every other pair and look-alike: plain names, custom fields' answers, a name without a value", () => {
    const kept: unknown[] = [
      {
        params: [
          { name: "pageSize", value: "20" },
          { name: "sortOrder", value: "Desc" },
        ],
      },
      { tiers: [{ name: "Gala annuel", value: 1500 }] },
      { customFields: [{ name: "Société", type: "TextInput", answer: "ACME" }] },
      { fields: [{ name: "password" }], value: "not-its-value" },
      { key: "continuationToken", note: "a name without its value" },
      { name: "token", value: null },
    ];
    for (const body of kept) {
      expect(asMap(body), JSON.stringify(body)).toBe(JSON.stringify(body));
      expect(asText(body), JSON.stringify(body)).toBe(JSON.stringify(body, null, 2));
    }
  });

  it("sends a compact body whose pair names a secret off the recorder's fast path, and keeps plain pairs on it", () => {
    const r = recorder();
    const fast = new JsonToYaml(
      (key) => isSensitiveField(key, r),
      (name) => isSensitiveField(asFieldName(name), r),
    );
    const transcode = (value: unknown) => fast.transcode(Buffer.from(JSON.stringify(value)), 0);
    expect(transcode({ env: [{ name: "DB_PASSWORD", value: "fast-1" }] })).toBeUndefined();
    expect(transcode([{ Key: "Access token", Value: "fast-2" }])).toBeUndefined();
    expect(
      transcode({
        items: [
          { name: "Gala annuel", value: 1 },
          { key: "continuationToken", value: "t" },
        ],
      }),
    ).toBeDefined();
  });
});
