import { effectiveSeverity } from "../contracts/consumer-rules.js";
import { AssopayError } from "../core/errors.js";
import { buildBattery } from "./cases.js";
import { type DeliveryResult, deliver } from "./deliver.js";
import { diagnose } from "./diagnose.js";
import { judgeCase } from "./judge.js";
import { type NotifyOptions, type ResolvedNotifyOptions, resolveNotifyOptions } from "./options.js";
import type { CaseVerdict, NotifyReport } from "./verdict.js";

/**
 * A failed case of a robustness rule (beyond the seed: surviving the real service) is a warning unless
 * the run is strict; a failed case of a seed rule stays a failure.
 */
function weigh(verdict: CaseVerdict, o: ResolvedNotifyOptions): CaseVerdict {
  if (verdict.outcome !== "fail") return verdict;
  if (effectiveSeverity(o.rules.byId(verdict.rule).severity, o.strict) !== "robustness") return verdict;
  return Object.freeze({
    ...verdict,
    outcome: "note" as const,
    reason: `(robustness, an error with --strict) ${verdict.reason}`,
  });
}

/**
 * Sends the battery to a receiver, one delivery at a time, and judges each case from its answers.
 * A receiver nothing listens at is an `AssopayError` (`unreachable`, exit 2); every other behaviour,
 * crashes and timeouts included, is a verdict.
 *
 * @example
 * const report = await runNotify({ to: "http://127.0.0.1:3000/hooks", key: "signing-key" });
 * for (const c of report.cases) console.log(c.outcome, c.id, c.reason);
 */
export async function runNotify(options: NotifyOptions): Promise<NotifyReport> {
  const o = resolveNotifyOptions(options);
  const battery = buildBattery({ types: o.types, key: o.key, unknownEventType: o.unknownEventType });
  const verdicts: CaseVerdict[] = [];
  for (const c of battery) {
    const results: DeliveryResult[] = [];
    for (const delivery of c.deliveries) {
      const result = await deliver(o.to, delivery, o.timeoutMs);
      if (
        result.kind === "no-answer" &&
        result.unreachable &&
        verdicts.length === 0 &&
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
    }
    const sent = c.deliveries.map((d) => ({
      body: d.body.toString("utf8"),
      ...(d.signature === undefined ? {} : { signature: d.signature }),
    }));
    verdicts.push(weigh({ ...judgeCase(c, results), sent }, o));
  }
  return Object.freeze({
    to: o.to,
    passed: verdicts.every((v) => v.outcome !== "fail"),
    cases: Object.freeze(verdicts),
    diagnosis: diagnose(verdicts),
  });
}
