import { join } from "node:path";
import type { BenchContext } from "../lib/context.js";
import { BARE, PEERS, peers, recordArgs, startContenders } from "../lib/record.js";
import { cpuPerRequest, percent, type Section, whole } from "../lib/report.js";
import { alternate, answeredCleanly, find, type Medians } from "../lib/rounds.js";

const TODAY = "assopay record (journal, worker, recovery, lag bound)";
const INLINE = "inline recorder (bench/systems/inline-record.ts)";
const INLINE_PLAIN = "inline recorder, no fast paths";

/**
 * Issue 46's recorder decision, in one run: today's recorder, the inline one (with and without the fast
 * paths) and the peers, at 10 and 50 connections with 2 KB bodies. The rule, as the issue writes it: the
 * inline recorder replaces the journal, the worker, recovery and the lag bound if it keeps ≥ 90% of
 * today's rate at both and stays ≥ 2× every peer; a fast path stays only where it is worth ≥ 10%.
 */
export async function recorderDecisionSuite(ctx: BenchContext): Promise<Section[]> {
  const skipped: string[] = [];
  const up = (await ctx.start(ctx.system("upstream", ["--size", "2048"]))).url;
  const today = join(ctx.scratch, "today.yaml");
  const inline = (file: string, ...flags: string[]) =>
    ctx.system("inline-record", ["--upstream", up, "--cassette", join(ctx.scratch, file), ...flags]);
  const contenders = await startContenders(ctx, skipped, [
    [BARE, ctx.system("bare-proxy", ["--upstream", up])],
    [TODAY, ctx.assopay(recordArgs(up, today)), today],
    [INLINE, inline("inline.yaml")],
    [INLINE_PLAIN, inline("plain.yaml", "--no-fast-paths")],
    ...peers(ctx, up),
  ]);
  const round = { ...ctx.options, unique: true, log: ctx.log };
  const runs: Medians[][] = [];
  for (const connections of [10, 50]) {
    ctx.log(`recorder decision: 2 KB bodies, ${connections} connections`);
    runs.push(await alternate(contenders, { ...round, connections }));
  }
  const rate = (list: Medians[], name: string) => find(list, name)?.rps ?? Number.NaN;
  const checks = runs.map((list) => {
    const today = rate(list, TODAY);
    const inline = rate(list, INLINE);
    const worstPeer = Math.max(
      ...Object.values(PEERS).map((p) => {
        const m = find(list, p);
        return m && answeredCleanly(m) ? m.rps : 0;
      }),
    );
    return {
      connections: list[0]?.connections ?? 0,
      keeps: inline / today,
      overPeers: inline / worstPeer,
      fastPaths: inline / rate(list, INLINE_PLAIN) - 1,
    };
  });
  const replaces = checks.every((c) => c.keeps >= 0.9 && c.overPeers >= 2);
  /** Today's recorder against each peer at 10 connections (the targets of issue 16's recording). */
  const overPeer = (peer: keyof typeof PEERS, times: number, label: string) => {
    const m = find(runs[0] ?? [], PEERS[peer]);
    const r = answeredCleanly(m) ? rate(runs[0] ?? [], TODAY) / (m?.rps ?? Number.NaN) : Number.NaN;
    return {
      target: `assopay record ≥ ${times}× ${label}'s recording (10 connections)`,
      measured: Number.isFinite(r) ? `${r.toFixed(1)}×` : "peer did not run or answered errors",
      met: Number.isFinite(r) ? r >= times : ("n/a" as const),
    };
  };
  const row = (m: Medians) => [
    m.name,
    String(m.connections),
    whole(m.rps),
    whole(m.sustainedRps),
    `${m.p50}`,
    `${m.p99}`,
    cpuPerRequest(m.cpuUs),
    cpuPerRequest(m.mainCpuUs),
    percent(m.rps / rate(runs[m.connections === 10 ? 0 : 1] ?? [], TODAY)),
    String(m.errors + m.non2xx),
  ];
  return [
    {
      title: "Recorder decision (issue 46)",
      table: {
        header: [
          "system",
          "connections",
          "req/s (median)",
          "req/s, cassette complete",
          "p50 ms",
          "p99 ms",
          "CPU µs/req",
          "main thread µs/req",
          "vs today's recorder",
          "errors",
        ],
        rows: runs.flatMap((list) => list.map(row)),
      },
      targets: [
        ...checks.flatMap((c) => [
          {
            target: `inline keeps ≥ 90% of today's recorder (${c.connections} connections)`,
            measured: percent(c.keeps),
            met: c.keeps >= 0.9,
          },
          {
            target: `inline ≥ 2× every peer (${c.connections} connections)`,
            measured: `${c.overPeers.toFixed(1)}× the fastest peer`,
            met: c.overPeers >= 2,
          },
          {
            target: `fast paths (transcoder, raw text, byte scan) worth ≥ 10% of the recorder's rate (${c.connections} connections)`,
            measured: `${(c.fastPaths * 100).toFixed(1)}%`,
            met: c.fastPaths >= 0.1,
          },
        ]),
        overPeer("talkback", 10, "talkback"),
        overPeer("mockttp", 3, "mockttp"),
        overPeer("wiremock", 3, "WireMock"),
      ],
      notes: [
        `Decision by the rule as written: ${replaces ? "the inline recorder replaces the journal, the worker, recovery and the lag bound" : "today's recorder stays (the inline one missed a condition above)"}.`,
        "Every request carries a unique `?i=N`, so every system records every exchange. The inline recorder holds each response's last bytes until its document is written (to the page cache, as today's journal is).",
        `"req/s, cassette complete" counts, for today's recorder, the time after each round until its cassette held every exchange (it answers first and converts its journal later); the other systems' cassettes are complete when they answer.`,
        "The peers (talkback, mockttp, WireMock) are measured here, not in the Recording section: at both 10 and 50 connections, their targets at 10.",
        "Every run of this suite, the machine's load during it, and what was decided: bench/history/recorder-decision.md.",
        ...skipped,
      ],
    },
  ];
}
