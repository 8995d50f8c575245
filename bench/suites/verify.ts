import { join } from "node:path";
import type { SandboxCredentials } from "../../sandbox/index.js";
import type { BenchContext } from "../lib/context.js";
import { type Section, whole } from "../lib/report.js";

/** The line `assopay sandbox --json` prints: its credentials, where it listens and its provider states. */
type SandboxInfo = SandboxCredentials & { url: string; stateUrl: string };

/** What bench/systems/measured.ts prints of a run. */
interface Measured {
  wallMs: number;
  maxRssKb: number;
  exitCode: number;
}

const SIZES = [1_000, 10_000, 100_000];
const AT = "2025-04-01";

/** What each row runs: the page checks alone (before completeness), and the whole pagination group. */
const MODES = [
  {
    name: "pages only",
    only: [
      "pagination/result-array",
      "pagination/end-is-empty-array",
      "pagination/token-echoed",
      "pagination/no-duplicates",
      "pagination/page-size",
    ],
    extra: [],
  },
  { name: "whole crawl (default --max-entries)", only: ["pagination"], extra: [] },
  { name: "whole crawl, every listing", only: ["pagination"], extra: ["--max-entries", "10000000"] },
] as const;

function verifyArgs(info: SandboxInfo, mode: (typeof MODES)[number]): string[] {
  return [
    "verify",
    ...["--target", info.url, "--at", AT, "--state-url", info.stateUrl],
    ...["--client-id", info.reader.clientId, "--client-secret", info.reader.clientSecret],
    ...["--admin-client-id", info.admin.clientId, "--admin-client-secret", info.admin.clientSecret],
    ...["--organization", info.organizationSlug, "--form-type", info.formType, "--form-slug", info.formSlug],
    ...["--only", ...mode.only, ...mode.extra, "--reporter", "json"],
  ];
}

/**
 * `assopay verify` against the sandbox at 1,000, 10,000 and 100,000 entries per form, with the page checks
 * alone and with the whole-crawl checks: wall time and peak memory.
 */
export async function verifySuite(ctx: BenchContext): Promise<Section[]> {
  const rows: string[][] = [];
  const figures = new Map<string, { wallMs: number; maxRssKb: number }>();
  for (const entries of SIZES) {
    const sandbox = await ctx.start({
      ...ctx.assopay(["sandbox", "--port", "0", "--json", "--entries", String(entries), "--at", AT]),
      urlPattern: /"url":"(http:\/\/127\.0\.0\.1:\d+)"/,
    });
    const info = JSON.parse(sandbox.line) as SandboxInfo;
    for (const mode of MODES) {
      if (mode.extra.length > 0 && entries < 100_000) continue;
      ctx.log(`verify: ${whole(entries)} entries per form, ${mode.name}`);
      const bin = join(ctx.root, "dist", "cli", "bin.js");
      const measured = await ctx.figures<Measured>(
        ctx.system("measured", [bin, ...verifyArgs(info, mode)]),
        "MEASURED",
      );
      figures.set(`${entries} ${mode.name}`, measured);
      const [wall, peak] = [
        `${(measured.wallMs / 1000).toFixed(1)} s`,
        `${whole(measured.maxRssKb / 1024)} MB`,
      ];
      rows.push([whole(entries), mode.name, wall, peak, String(measured.exitCode)]);
      ctx.log(`  ${wall}, peak ${peak}, exit ${measured.exitCode}`);
    }
    await sandbox.close();
  }
  const at = (entries: number, mode: number) => figures.get(`${entries} ${MODES[mode]?.name}`);
  const ratio = (a: number | undefined, b: number | undefined) =>
    a !== undefined && b !== undefined ? a / b : Number.NaN;
  const timeGrowth = ratio(at(100_000, 0)?.wallMs, at(10_000, 0)?.wallMs);
  const memoryGrowth = ratio(at(100_000, 0)?.maxRssKb, at(10_000, 0)?.maxRssKb);
  const wholeCost = ratio(at(10_000, 1)?.wallMs, at(10_000, 0)?.wallMs);
  return [
    {
      title: "Verify",
      table: { header: ["entries per form", "checks", "wall time", "peak memory (RSS)", "exit"], rows },
      targets: [
        {
          target: "time grows linearly (10k → 100k: at most 12×)",
          measured: `${timeGrowth.toFixed(1)}×`,
          met: timeGrowth <= 12,
        },
        {
          target: "memory stays flat (10k → 100k: at most 1.25×)",
          measured: `${memoryGrowth.toFixed(2)}×`,
          met: memoryGrowth <= 1.25,
        },
        {
          target: "the whole-crawl checks cost at most 4× the page checks at 10k",
          measured: `${wholeCost.toFixed(1)}×`,
          met: wholeCost <= 4,
        },
      ],
      notes: [
        `"pages only" is \`assopay verify\` with the five page checks of the pagination group (what it judged before the whole-crawl checks); "whole crawl" is \`--only pagination\`, which also crawls each listing at pageSize 7 and 100 and judges the crawls together (completeness). Listings above \`--max-entries\` (default 10,000) skip those extra crawls; the last row raises it so every listing is crawled three times. Each run crawls every listing route of the sandbox to its end at ${AT}, in its own process; peak memory is that process's maximum RSS.`,
        "With provider states the form listings hold the 45 entries the state seeds; the organization listings hold every form's entries (10,045 and 100,045 here), so at the default `--max-entries` only the last row crawls those again: 100,045 entries at pageSize 7 is 14,293 requests.",
      ],
    },
  ];
}
