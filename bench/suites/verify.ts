import { join } from "node:path";
import type { BenchContext } from "../lib/context.js";
import type { Section } from "../lib/report.js";
import { runMeasured } from "../lib/run-measured.js";
import { whole } from "../lib/stats.js";

interface SandboxInfo {
  url: string;
  stateUrl: string;
  organizationSlug: string;
  formType: string;
  formSlug: string;
  admin: { clientId: string; clientSecret: string };
  reader: { clientId: string; clientSecret: string };
}

const SIZES = [1_000, 10_000, 100_000];
const AT = "2025-04-01";

function verifyArgs(info: SandboxInfo): string[] {
  return [
    "verify",
    ...["--target", info.url, "--at", AT, "--state-url", info.stateUrl],
    ...["--client-id", info.reader.clientId, "--client-secret", info.reader.clientSecret],
    ...["--admin-client-id", info.admin.clientId, "--admin-client-secret", info.admin.clientSecret],
    ...["--organization", info.organizationSlug, "--form-type", info.formType, "--form-slug", info.formSlug],
    ...["--only", "pagination", "--reporter", "json"],
  ];
}

/** `assopay verify` against the sandbox at 1,000, 10,000 and 100,000 entries per form: wall time and peak memory. */
export async function verifySuite(ctx: BenchContext): Promise<Section[]> {
  const rows: string[][] = [];
  const figures: { wallMs: number; maxRssKb: number }[] = [];
  for (const entries of SIZES) {
    const sandbox = await ctx.start({
      ...ctx.assopay(["sandbox", "--port", "0", "--json", "--entries", String(entries), "--at", AT]),
      urlPattern: /"url":"(http:\/\/127\.0\.0\.1:\d+)"/,
    });
    const info = JSON.parse(sandbox.line) as SandboxInfo;
    ctx.log(`verify: ${whole(entries)} entries per form`);
    const measured = await runMeasured(process.execPath, [
      "--import",
      "tsx",
      join(ctx.root, "bench", "systems", "measured.ts"),
      join(ctx.root, "dist", "cli", "bin.js"),
      ...verifyArgs(info),
    ]);
    await sandbox.close();
    figures.push(measured);
    rows.push([
      whole(entries),
      `${(measured.wallMs / 1000).toFixed(1)} s`,
      `${whole(measured.maxRssKb / 1024)} MB`,
      String(measured.exitCode),
    ]);
    ctx.log(
      `  ${(measured.wallMs / 1000).toFixed(1)} s, peak ${whole(measured.maxRssKb / 1024)} MB, exit ${measured.exitCode}`,
    );
  }
  const [, mid, last] = figures;
  const timeGrowth = mid && last ? last.wallMs / mid.wallMs : Number.NaN;
  const memoryGrowth = mid && last ? last.maxRssKb / mid.maxRssKb : Number.NaN;
  return [
    {
      title: "Verify",
      command: "npm run bench -- --only verify",
      table: { header: ["entries per form", "wall time", "peak memory (RSS)", "exit"], rows },
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
      ],
      notes: [
        `\`assopay verify --only pagination\` crawls every listing route of the sandbox to its end at ${AT} (counts compared with \`withCount=true\`), in its own process; peak memory is that process's maximum RSS.`,
      ],
    },
  ];
}
