// The secret formats' costs on a 1 MB JSON listing without a secret, for builds side by side (copies of
// dist/), each in a process of its own, in alternation: FORMAT_CANDIDATE over the whole text, the
// recorder's body scan (scanBody), and the general path (redactBody, every string tested). Milliseconds,
// the mean of 20 calls (5 for redactBody) after 3.
// Usage: node --import tsx bench/redaction-builds.ts DIST [DIST ...] [--rounds N]
// Example: node --import tsx bench/redaction-builds.ts .scratch/before dist
import { parseArgs } from "node:util";
import { alternateBuilds, fromBuild } from "./lib/builds.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: "string", default: "3" }, child: { type: "boolean", default: false } },
});

async function measure(dist: string): Promise<Record<string, string>> {
  const load = (path: string) => fromBuild(dist, path);
  const { FORMAT_CANDIDATE } = await load("core/secrets/formats.js");
  const { scanBody } = await load("proxy/redaction/scan.js");
  const { createRedactor } = await load("proxy/redaction/redactor.js");
  const { redactBody } = await load("proxy/redaction/redact.js");
  const entry = (i: number) => ({
    id: 1000 + i,
    date: "2025-03-01T10:00:00.1234567+01:00",
    payer: { firstName: "Jeanne", lastName: "Martin", email: "jeanne.martin@example.org", city: "Lyon" },
    items: [{ id: 5000 + i, amount: 1500, type: "Registration", state: "Processed", name: "Entrée gala" }],
    formSlug: "gala-annuel",
    comment: "Merci pour cette belle soirée, à l'année prochaine !",
  });
  const text = JSON.stringify({ data: Array.from({ length: 2400 }, (_, i) => entry(i)) });
  const bytes = Buffer.from(text);
  const time = (run: () => unknown, n: number) => {
    for (let i = 0; i < 3; i++) run();
    const start = performance.now();
    for (let i = 0; i < n; i++) run();
    return ((performance.now() - start) / n).toFixed(2);
  };
  const redactor = () => createRedactor(undefined, false, true);
  return {
    MB: (bytes.length / 1e6).toFixed(2),
    candidate: time(() => FORMAT_CANDIDATE.test(text), 20),
    scanBody: time(() => scanBody(bytes, redactor(), { keys: true, literal: false }), 20),
    redactBody: time(() => redactBody({ text }, "application/json", redactor()), 5),
  };
}

if (values.child) {
  console.log(JSON.stringify(await measure(positionals[0] ?? "dist")));
} else {
  alternateBuilds(process.argv[1] ?? "bench/redaction-builds.ts", positionals, {
    rounds: Number(values.rounds),
    childArgs: [],
    label: "ms",
  });
}
