import { DEPRECATION_HEADERS_RULE, deprecationHeadersBreach } from "../versions/deprecation-headers.js";
import type { Exchange, Judgement } from "./types.js";

/** The answer's `Deprecation` and `Sunset`, where sent, in their RFC's form (any status, any route). */
export function judgeDeprecationHeaders(exchange: Exchange, judgement: Judgement): void {
  const breach = deprecationHeadersBreach(exchange.target);
  if (breach) judgement.breaches.push({ rule: DEPRECATION_HEADERS_RULE, ...breach });
}
