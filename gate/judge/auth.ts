import type { ConsumerRules, GateRuleId } from "../../contracts/consumer-rules.js";
import { type RecordedExchange, shortAuthorization } from "../exchange.js";
import type { FindingCollector } from "./findings.js";

const RULE: GateRuleId = "auth.fresh-token-after-401";

interface Refusal {
  readonly first: RecordedExchange;
  reuses: number;
  /** A token request came after this refusal. */
  renewed: boolean;
}

const isTokenCall = (e: RecordedExchange) => e.route?.id === "token";
const ok = (status: number | undefined) => status !== undefined && status >= 200 && status < 300;

/**
 * Judges what the command does after a 401 (SERVICE-FACTS: Authentication): it must get a fresh access
 * token, not resend the refused one (beyond `refusedTokenReuses` retries) and not re-authenticate in a
 * loop (`reauthsWithoutSuccess` token requests in a row with no successful call between).
 */
export function judgeAuth(
  exchanges: readonly RecordedExchange[],
  collector: FindingCollector,
  rules: ConsumerRules,
): void {
  const maxReuses = rules.limit(RULE, "refusedTokenReuses", 1);
  const maxReauths = rules.limit(RULE, "reauthsWithoutSuccess", 3);
  const refused = new Map<string, Refusal>();
  let reauthsInARow = 0;
  for (const exchange of exchanges) {
    const status = exchange.response?.status;
    if (isTokenCall(exchange)) {
      for (const refusal of refused.values()) refusal.renewed = true;
      reauthsInARow += 1;
      if (reauthsInARow > maxReauths) {
        collector.add(RULE, "reauth-loop", {
          message: `asked for a new access token ${reauthsInARow} times in a row without one successful call`,
          exchange,
          details: [
            "a 401 that a fresh token does not cure will not be cured by another one: give up and report it",
          ],
        });
      }
      continue;
    }
    if (exchange.route === undefined) continue;
    const refusal = refused.get(exchange.authorization);
    if (refusal && exchange.seq > refusal.first.seq) {
      refusal.reuses += 1;
      if (refusal.reuses > maxReuses) {
        collector.add(RULE, `reuse ${exchange.authorization}`, {
          message: `sent again the access token the server had refused with 401 (${refusal.reuses} times)`,
          exchange,
          details: [
            `refused first at request #${refusal.first.seq}: ${shortAuthorization(exchange.authorization)}`,
            `at most ${maxReuses} retry with a refused token is tolerated; then ask POST /oauth2/token for a new one`,
          ],
        });
      }
    }
    if (status === 401 && !refused.has(exchange.authorization)) {
      refused.set(exchange.authorization, { first: exchange, reuses: 0, renewed: false });
    }
    if (ok(status)) reauthsInARow = 0;
  }
  for (const [authorization, refusal] of refused) {
    if (refusal.renewed || refusal.reuses > maxReuses) continue;
    collector.add(RULE, `never-renewed ${authorization}`, {
      message: "never asked for a fresh access token after a 401",
      exchange: refusal.first,
      details: [`refused: ${shortAuthorization(authorization)}`],
    });
  }
}
