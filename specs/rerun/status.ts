import { refusalRule, type TimelineEntry } from "../../contracts/index.js";
import { acceptanceRule } from "../../contracts/status-judge.js";
import { evidenceOf, isSuccess } from "../runner/http.js";
import { DEPRECATION_HEADERS_RULE, deprecationHeadersBreach } from "../versions/deprecation-headers.js";
import type { Exchange, Judgement } from "./finding.js";
import { isContinuation } from "./listings.js";

/**
 * Judges the target's status against the recorded one and the rules at `--at`, and its `Deprecation` and
 * `Sunset`, where sent, in their RFC's form (any status, any route). Returns false when the body is not
 * worth judging further (the target refused, or a v3 route is switched off).
 */
export function judgeStatus(
  exchange: Exchange,
  judgement: Judgement,
  entries: readonly TimelineEntry[],
): boolean {
  const { route, rules, target, recorded } = exchange;
  const announced = deprecationHeadersBreach(target);
  if (announced) judgement.fail(DEPRECATION_HEADERS_RULE, announced.reason, announced.evidence);
  const served = isSuccess(target.status);
  const wasServed = isSuccess(recorded.status);
  const versus = `answered ${target.status} where the recording had ${recorded.status}`;
  const continuation = isContinuation(exchange.step.interaction.request.query);
  if (route && rules && route.version === "v3") {
    const entry = [...rules.inForce, ...entries].find((e) => e.effect === "v3-switch-off");
    const ids = entry ? [entry.id] : [];
    if (!rules.served) {
      if (served) {
        judgement.fail(
          "versions.v3-switched-off",
          `a v3 route ${versus}, after its switch-off (${entry?.date ?? "?"}): it must not answer`,
          evidenceOf(target),
          ids,
        );
        return false;
      }
      if (wasServed && entry) {
        judgement.dated.push({
          entry,
          rule: "versions.v3-switched-off",
          inForce: true,
          what: `v3 ${versus}`,
        });
      }
      return false;
    }
    if (!served && wasServed && !continuation) {
      judgement.fail(
        "versions.v3-served-before-switch-off",
        `a v3 route ${versus}, before its switch-off (${entry?.date ?? "?"})`,
        evidenceOf(target),
        ids,
      );
      return false;
    }
    if (served && !wasServed && recorded.status === 404 && entry) {
      judgement.dated.push({
        entry,
        rule: "versions.v3-served-before-switch-off",
        inForce: false,
        what: `v3 ${versus}: --at is before the switch-off, the recording after it`,
      });
      return true;
    }
  }
  if (served === wasServed) {
    if (target.status !== recorded.status) judgement.differences.push(`status: ${versus}`);
    return served;
  }
  if (!route) {
    judgement.differences.push(`status: ${versus}`);
    return served;
  }
  if (wasServed) {
    judgement.fail(refusalRule(route, continuation), `${route.id} ${versus}`, evidenceOf(target));
    return false;
  }
  const rule = acceptanceRule(route, recorded.status, Number(exchange.query.get("pageSize") ?? Number.NaN));
  if (rule) {
    judgement.fail(
      rule,
      `${route.id} ${versus}: it must be refused as the recording was`,
      evidenceOf(target),
    );
  } else {
    judgement.differences.push(`status: ${versus}`);
  }
  return served;
}
