import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { contractsDir } from "../../core/paths.js";
import { startStub } from "./support/pact-binary.js";

const pactsDir = join(contractsDir(), "pacts");
const files = readdirSync(pactsDir).filter((f) => f.endsWith(".json"));
const MAX_STEPS = 10;

interface Interaction {
  type: string;
  description: string;
  request?: { method: string; path: string; query?: Record<string, string[]> };
  response?: { status: number; body?: { content?: { pagination?: unknown } } };
}

const interactionsOf = (text: string) => (JSON.parse(text) as { interactions: Interaction[] }).interactions;

/** The first-page requests of the listings a file serves: no token, no optional parameter. */
function listingStarts(interactions: Interaction[]): string[] {
  return interactions
    .filter((i) => i.request?.method === "GET" && i.response?.status === 200)
    .filter((i) => i.response?.body?.content?.pagination !== undefined && i.request?.query === undefined)
    .map((i) => i.request?.path ?? "");
}

/**
 * Walks a listing on the stub as a client would, with any bearer token and no pageSize: the first page,
 * then each continuation token sent back, until an empty page; the steps taken, or -1 without an end.
 * The stub answers the same request the same way every time, so a token it gives back that was already
 * sent means a walk that goes round forever: -1 at once, rather than after MAX_STEPS pages.
 */
async function walk(url: string, path: string): Promise<number> {
  let token: string | undefined;
  const sent = new Set<string>();
  for (let step = 1; step <= MAX_STEPS; step++) {
    if (token !== undefined) sent.add(token);
    const query = token === undefined ? "" : `?continuationToken=${encodeURIComponent(token)}`;
    const res = await fetch(`${url}${path}${query}`, {
      headers: { authorization: "Bearer a-real-looking.token" },
    });
    if (res.status !== 200) throw new Error(`${path}${query}: the stub answered ${res.status}`);
    const body = (await res.json()) as Record<string, unknown> & {
      pagination: { continuationToken?: string };
    };
    const entries = Object.values(body).find(Array.isArray) as unknown[];
    if (entries.length === 0) return step;
    token = body.pagination.continuationToken;
    // A non-empty page without a token ends the walk too (seed rule 7): a short listing's one page.
    if (token === undefined) return step;
    if (sent.has(token)) return -1;
  }
  return -1;
}

/** The listings that are one page without a token in the pacts: an organization's forms, the partner's organizations. */
const shortListing = (path: string) => /\/forms$|\/partners\/me\/organizations$/.test(path);

async function walkAll(file: string): Promise<Record<string, number>> {
  const starts = listingStarts(interactionsOf(readFileSync(file, "utf8")));
  const stub = await startStub(file);
  try {
    const counts = await Promise.all(starts.map((path) => walk(stub.url, path)));
    return Object.fromEntries(starts.map((path, i) => [path, counts[i] ?? 0]));
  } finally {
    await stub.stop();
  }
}

describe("the official stub server (pact stub) on the pact files", () => {
  it.each(files)("%s: walks every listing to the empty page", async (file) => {
    const steps = await walkAll(join(pactsDir, file));
    expect(Object.keys(steps).length).toBeGreaterThan(0);
    // Three steps (page 1, the page asked with A, the empty page asked with B); a short listing is
    // one page without a token.
    for (const [path, count] of Object.entries(steps)) expect(count, path).toBe(shortListing(path) ? 1 : 3);
  });

  it("never reaches the end when the steps share one example token (the earlier files)", async () => {
    const file = files.at(-1) ?? "";
    const dir = mkdtempSync(join(tmpdir(), "assopay-stub-"));
    const shared = readFileSync(join(pactsDir, file), "utf8").replace(/example-token-[ab]/g, "example-token");
    writeFileSync(join(dir, file), shared);
    const steps = await walkAll(join(dir, file));
    expect(Object.values(steps).length).toBeGreaterThan(0);
    for (const [path, count] of Object.entries(steps)) if (!shortListing(path)) expect(count, path).toBe(-1);
  });
});
