import { readPage } from "../../contracts/index.js";
import type { CheckContext } from "./context.js";
import { type HttpExchange, isSuccess, parseJson } from "./http.js";
import { stateString } from "./states.js";

/** The first entries of a listing, read as a client would; `exchange` is the last page asked for. */
export interface ListingSample {
  entries: readonly Record<string, unknown>[];
  exchange: HttpExchange;
  /** True when the first page was served (2xx with a result array). */
  served: boolean;
}

const MAX_SAMPLE_PAGES = 20;

/**
 * Reads a listing from its first page, following `pagination.continuationToken` byte for byte, until it
 * holds `limit` entries, ends, or `MAX_SAMPLE_PAGES` pages were read. What verify uses, without provider
 * states, to find ids an integrator would find: orders, forms. Judging the pages is the crawler's work.
 */
export async function sampleListing(
  ctx: CheckContext,
  url: string,
  limit: number,
  authorization: string | undefined,
): Promise<ListingSample> {
  const entries: Record<string, unknown>[] = [];
  let token: string | undefined;
  let exchange: HttpExchange | undefined;
  for (let page = 0; page < MAX_SAMPLE_PAGES && entries.length < limit; page++) {
    const query =
      token === undefined
        ? ""
        : `${url.includes("?") ? "&" : "?"}continuationToken=${encodeURIComponent(token)}`;
    exchange = await ctx.http.send({ method: "GET", url: `${url}${query}`, authorization });
    const parsed = isSuccess(exchange.status) ? parseJson(exchange) : undefined;
    const read = parsed?.ok ? readPage(parsed.value, "data") : undefined;
    if (!read?.ok) return { entries, exchange, served: page > 0 };
    for (const entry of read.entries) {
      if (entry !== null && typeof entry === "object") entries.push(entry as Record<string, unknown>);
    }
    if (read.entries.length === 0 || read.token === undefined || read.token === token) break;
    token = read.token;
  }
  if (!exchange) throw new Error("sampleListing: no page read");
  return { entries: entries.slice(0, limit), exchange, served: true };
}

/** The numeric or string id of a listing entry, read as a state answer's values are. */
export const entryId = (entry: Record<string, unknown>) => stateString(entry, "id");
