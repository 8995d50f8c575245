import { connect } from "node:net";
import { AssopayError } from "../core/errors.js";
import type { Finding } from "../core/finding.js";
import { apiEnv, type RunningCommand, runCommand } from "../core/run-command.js";
import { type ApiAnswer, readKnownPayments } from "./api.js";
import { buildBattery, KNOWN_PAYMENTS, type NotifyCase, recordedBattery } from "./cases.js";
import { type DeliveryResult, deliver } from "./deliver.js";
import { diagnose, type Judged, judgeCase } from "./judge.js";
import { type NotifyOptions, type ResolvedNotifyOptions, resolveNotifyOptions } from "./options.js";

/** What `assopay notify` found: one finding per case of the battery, and what the failures say together. */
export interface NotifyReport {
  readonly to: string;
  readonly passed: boolean;
  readonly cases: readonly Finding[];
  /** What the failures together say ("it verifies a re-serialisation" …). */
  readonly diagnosis: readonly string[];
}

/** How long a receiver run as a command may take to listen at its URL. */
const START_LIMIT_MS = 60_000;

const listening = (url: URL) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 80) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/**
 * Runs the receiver's command with the API's address and credentials in its environment and the port of
 * `to` as `PORT`, and resolves once something listens there. A command that ends first, or never
 * listens, is a usage error (exit 2) quoting what it wrote last.
 */
async function startReceiver(
  o: ResolvedNotifyOptions,
  deliveries: number,
): Promise<RunningCommand | undefined> {
  if (!o.command) return undefined;
  const url = new URL(o.to);
  const api = o.api;
  const running = runCommand(o.command, {
    env: {
      ...o.env,
      ...(api ? { ...api.env, ...apiEnv(api.url) } : {}),
      PORT: url.port || (url.protocol === "https:" ? "443" : "80"),
    },
    timeoutMs: 2 * START_LIMIT_MS + deliveries * o.timeoutMs,
    onLine: o.onOutput,
    signal: undefined,
  });
  let ended = false;
  void running.done.then(() => {
    ended = true;
  });
  const started = Date.now();
  while (!(await listening(url))) {
    if (ended || Date.now() - started > START_LIMIT_MS) {
      running.stop("aborted");
      const end = await running.done;
      const why = end.startError ?? (ended ? `it ended (exit ${end.exitCode ?? end.signal})` : "");
      throw new AssopayError(
        "usage",
        `assopay notify: the receiver's command never listened at ${url.host}${why ? `: ${why}` : ` within ${START_LIMIT_MS / 1000} s`}`,
        {
          hint: `${end.stderrTail.length > 0 ? `its last words: ${end.stderrTail.join(" | ")}; ` : ""}give the program and its arguments after -- (no shell), listening on the port of --to ($PORT)`,
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return running;
}

/**
 * Sends the battery (or the recorded notifications) to a receiver, one delivery at a time, and judges
 * each case from its answers and, when it reconciles against an API, from what it read there first. A
 * receiver nothing listens at is an `AssopayError` (`unreachable`, exit 2); every other behaviour,
 * crashes and slow answers included, is a verdict.
 *
 * @example
 * const report = await runNotify({ to: "http://127.0.0.1:3000/hooks", key: "signing-key" });
 * for (const c of report.cases) console.log(c.verdict, c.id, c.reason);
 */
export async function runNotify(options: NotifyOptions): Promise<NotifyReport> {
  const o = resolveNotifyOptions(options);
  const api = o.api && !o.recorded ? await readKnownPayments(o.api, KNOWN_PAYMENTS) : undefined;
  const battery: readonly NotifyCase[] = o.recorded
    ? recordedBattery(o.recorded, o.to, o.key)
    : buildBattery({ ...o, api });
  const receiver = await startReceiver(
    o,
    battery.reduce((sum, c) => sum + c.deliveries.length, 0),
  );
  const judged: Judged[] = [];
  try {
    for (const c of battery) {
      const results: DeliveryResult[] = [];
      const reads: ApiAnswer[][] = [];
      const from = o.api?.answered().length ?? 0;
      for (const delivery of c.deliveries) {
        const result = await deliver(delivery, o.timeoutMs);
        if (
          result.kind === "no-answer" &&
          result.unreachable &&
          judged.length === 0 &&
          results.length === 0
        ) {
          throw new AssopayError(
            "unreachable",
            `assopay notify: nothing answers at ${o.to} (${result.error})`,
            {
              hint: "start the receiver first, and check the URL and port",
            },
          );
        }
        results.push(result);
        reads.push(o.api?.answered().slice(from) ?? []);
      }
      judged.push({ finding: judgeCase(c, results, o.api ? reads : undefined, o.rules, o.strict), results });
    }
  } finally {
    receiver?.stop("aborted");
    await receiver?.done;
  }
  return Object.freeze({
    to: o.to,
    passed: judged.every(({ finding }) => finding.verdict !== "fail"),
    cases: Object.freeze(judged.map(({ finding }) => finding)),
    diagnosis: diagnose(judged),
  });
}
