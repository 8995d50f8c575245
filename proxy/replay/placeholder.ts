import { type Problem, problem } from "../../core/http/problem.js";
import { bodyBytes } from "../cassette/body.js";
import type { StoredRequest } from "../cassette/format.js";

/** A secret placeholder as cassettes hold them, also percent-encoded (`%3Csecret%3A`) in a URL. */
const PLACEHOLDER = /<secret:|%3Csecret%3A/i;

/**
 * Whether a request carries a secret placeholder anywhere (path, query, headers, body): a value the
 * client can only have got from a cassette, which the service would refuse (and whose 401 would then be
 * recorded). Placeholders are ASCII, so a body is searched as bytes, whatever its encoding.
 */
export function carriesPlaceholder(request: StoredRequest): boolean {
  if (PLACEHOLDER.test(request.path)) return true;
  for (const map of [request.query ?? {}, request.headers]) {
    for (const value of Object.values(map)) {
      for (const v of Array.isArray(value) ? value : [value]) if (PLACEHOLDER.test(v)) return true;
    }
  }
  const body = request.body;
  if (!body) return false;
  return PLACEHOLDER.test(bodyBytes(body).toString("latin1"));
}

/** The answer to a request carrying a placeholder that the cassette cannot answer: never forwarded. */
export function placeholderRefusal(shown: string): Problem {
  return problem(
    "placeholder-not-forwarded",
    501,
    "A secret placeholder cannot go upstream",
    `${shown} carries a secret placeholder (<secret:…>): it came from the cassette, which replaced the real secret, and the service would refuse it. The cassette holds no answer to this request, and it is not forwarded.`,
    {
      request: shown,
      hint: "send the real secret (a fresh token from the service) to record this request, or record the cassette again with --mode all",
    },
  );
}
