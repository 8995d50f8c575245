import { lintSource } from "@secretlint/core";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import { describe, expect, it } from "vitest";
import { SECRET_FORMATS } from "../../core/secrets/formats.js";
import { redactSecretText } from "../../core/secrets/text.js";
import { createRedactor } from "../../proxy/redaction/redactor.js";
import { redactText } from "../../proxy/redaction/text-body.js";

/**
 * Our secret formats (core/secrets/formats.ts) are a list of our own, fast enough for the recorder's
 * hot path. This test holds them to a well-kept ruleset, secretlint's recommended preset: every text
 * below is a secret by that ruleset (the test fails if secretlint stops flagging one, so each sample
 * stays a real instance of its rule), and neither the report redactor nor the recorder's body
 * redaction may leave any span secretlint flags.
 */

/** A deterministic run of `n` characters of `alphabet` (no randomness: the samples stay the same). */
function run(n: number, alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"): string {
  return Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join("");
}

const SAMPLES: Readonly<Record<string, string>> = {
  "secretlint-rule-github": `deploy with ghp_${run(36)} please`,
  "secretlint-rule-npm": `//registry.npmjs.org/:_authToken=npm_${run(36)}`,
  "secretlint-rule-slack": `token xoxb-123456789012-1234567890123-${run(24)}`,
  "secretlint-rule-sendgrid": `SG.${run(22)}.${run(43)}`,
  "secretlint-rule-shopify": `shpat_${run(32, "0123456789abcdef")}`,
  "secretlint-rule-openai": `OPENAI=sk-${run(20)}T3BlbkFJ${run(20)}`,
  "secretlint-rule-linear": `lin_api_${run(40)}`,
  "secretlint-rule-basicauth": `see https://alice:${run(12)}@api.example.org/v5`,
  "secretlint-rule-aws": `AWS_ACCESS_KEY_ID=AKIA${run(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}\naws_secret_access_key = ${run(40)}`,
  "secretlint-rule-privatekey": `-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA${run(64)}\n${run(64)}\n-----END RSA PRIVATE KEY-----`,
};

async function flagged(content: string): Promise<{ ruleId: string; text: string }[]> {
  const result = await lintSource({
    source: { filePath: "/sample.txt", content, contentType: "text" },
    options: {
      config: { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }] },
    },
  });
  return result.messages.map((m) => ({ ruleId: m.ruleId, text: content.slice(m.range[0], m.range[1]) }));
}

describe("our secret formats against secretlint's recommended ruleset", () => {
  it.each(Object.entries(SAMPLES))(
    "%s: flagged by secretlint, and gone from what we write",
    async (rule, sample) => {
      const found = await flagged(sample);
      expect(found.map((f) => f.ruleId)).toContain(`@secretlint/${rule}`);
      const report = redactSecretText(sample);
      const recorded = redactText(sample, "text/plain", createRedactor(undefined, false, true));
      for (const { text } of found) {
        expect(report, "the report redactor").not.toContain(text);
        expect(recorded, "the recorder").not.toContain(text);
      }
    },
  );

  it("what secretlint does not flag, we keep as it was (no false alarm on ordinary text)", async () => {
    const ordinary = "order 10000044 paid 1200 cents on 2025-04-01T10:00:00.000+02:00 by Jeanne Martin";
    expect(await flagged(ordinary)).toEqual([]);
    expect(redactSecretText(ordinary)).toBe(ordinary);
    expect(redactText(ordinary, "text/plain", createRedactor(undefined, false, true))).toBe(ordinary);
  });
});

/** Formats whose rule the preset has, but whose form here (the table's example) the preset lets pass. */
const MISSED_BY_PRESET = [
  "aws-access-key-id",
  "openai-key",
  "anthropic-key",
  "1password-service-token",
  "url-password",
];

describe("the formats of our own table are the ones the preset lacks", () => {
  const own = SECRET_FORMATS.filter(
    (f) => f.origin !== "secretlint-preset-recommend" || MISSED_BY_PRESET.includes(f.id),
  );
  const restated = SECRET_FORMATS.filter((f) => !own.includes(f));

  it.each(own.map((f) => [f.id, f.example] as const))(
    "%s: its example passes the preset unflagged, and we replace it",
    async (_id, example) => {
      expect(await flagged(example)).toEqual([]);
      expect(redactSecretText(example)).not.toContain(example);
    },
  );

  // The preset runs only on what the recorder writes (up to 256 KB a text): reports, logs and errors,
  // and longer texts, have only the table.
  it.each(restated.map((f) => [f.id, f.example] as const))(
    "%s: restated from the preset for the texts it does not read, and the preset flags it too",
    async (_id, example) => {
      expect(await flagged(example)).not.toEqual([]);
    },
  );

  it("has no entry for a token the preset flags and the prefixed-token shape finds (Slack's app token)", async () => {
    const appToken = `xa${"pp"}-1-A0123BCDEF9-1234567890123-${"0a1b2c3d4e5f6789".repeat(4)}`;
    expect(
      SECRET_FORMATS.some((f) => appToken.search(f.pattern) >= 0 && f.id !== "prefixed-random-token"),
    ).toBe(false);
    expect((await flagged(appToken)).map((f) => f.ruleId)).toContain("@secretlint/secretlint-rule-slack");
    expect(redactSecretText(appToken)).not.toContain(appToken);
    const recorded = redactText(appToken, "text/plain", createRedactor(undefined, false, true));
    expect(recorded).not.toContain(appToken);
  });
});
