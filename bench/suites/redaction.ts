import { redactSecretText } from "../../core/secrets/text.js";
import { createRedactor } from "../../proxy/redaction/redactor.js";
import { learnFromRuleset, RULESET_TEXT_LIMIT, rulesetSecrets } from "../../proxy/redaction/ruleset.js";
import { redactText } from "../../proxy/redaction/text-body.js";
import type { BenchContext } from "../lib/context.js";
import { median, type Section } from "../lib/report.js";

/** The bodies measured: a 2 KB JSON answer and a 1 MB text export, each with one secret inside. */
function bodies(): { name: string; text: string; type: string }[] {
  const entry = (i: number) => ({
    id: 10_000_000 + i,
    payer: { firstName: "Jeanne", lastName: "Martin" },
    amount: 1200,
  });
  const json = JSON.stringify({
    data: Array.from({ length: 18 }, (_, i) => entry(i)),
    token: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
  });
  const line = "10000044;Jeanne Martin;1200;2025-04-01T10:00:00.000+02:00;Processed\n";
  const text = `${line.repeat(Math.floor(1_048_576 / line.length))}api_key = sk_live_0123456789abcdefghijklmn\n`;
  return [
    { name: `${(json.length / 1024).toFixed(1)} KB JSON`, text: json, type: "application/json" },
    { name: "1 MB text", text, type: "text/plain" },
  ];
}

/** Median microseconds per call of `run` over `rounds`, after one warm-up call. */
async function timed(rounds: number, run: () => unknown | Promise<unknown>): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return median(samples);
}

const us = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} ms` : `${n.toFixed(0)} µs`);

/**
 * What redaction costs per body, in-process: the recorder's body redaction (`redactText`, the
 * formats of core/secrets/formats.ts), the report redactor (`redactSecretText`), and secretlint's
 * recommended preset over the same text, the ruleset our formats are tested against.
 */
export async function redactionSuite(ctx: BenchContext): Promise<Section[]> {
  const rows: string[][] = [];
  const headers = {
    "content-type": "application/json",
    date: new Date().toUTCString(),
    "x-request-id": "abc",
  };
  for (const body of bodies()) {
    const rounds = body.text.length > 100_000 ? 20 : 400;
    ctx.log(`redaction: ${body.name}`);
    const recorder = await timed(rounds, () =>
      redactText(body.text, body.type, createRedactor(undefined, false, true)),
    );
    const report = await timed(rounds, () => redactSecretText(body.text));
    const ruleset = await timed(rounds, () => rulesetSecrets(body.text.slice(0, RULESET_TEXT_LIMIT)));
    const wire = Buffer.from(body.text);
    const exchange = [
      {
        line: "GET /v5/organizations/x/forms/event/y/orders?pageSize=20",
        headers,
        body: { wire: Buffer.alloc(0) },
      },
      { line: "HTTP 200", headers, body: { wire } },
    ];
    const scan = await timed(rounds, () =>
      learnFromRuleset(exchange, createRedactor(undefined, false, true)),
    );
    const scanned = body.text.length > RULESET_TEXT_LIMIT ? `${us(scan)} (headers only)` : us(scan);
    rows.push([body.name, us(recorder), us(report), us(ruleset), scanned]);
  }
  return [
    {
      title: "Redaction",
      table: {
        header: [
          "body",
          "recorder (redactText)",
          "reports (redactSecretText)",
          "secretlint preset (first 256 KB)",
          "recorder's ruleset scan of the exchange",
        ],
        rows,
      },
      notes: [
        "Median time per body, in this process, after a warm-up call. The recorder's figure is the body's redaction alone (the worker's whole pipeline per 2 KB exchange is in the Recording section).",
        "secretlint's recommended preset (`rulesetSecrets`, its profiler silenced) over the body's first 256 KB, the most the recorder hands it in one call.",
        "The recorder's ruleset scan (`learnFromRuleset`) is what the worker adds per exchange: the request and response lines and headers, and the response body when it is text of up to 256 KB (a larger body is left to the formats of core/secrets/formats.ts).",
      ],
    },
  ];
}
