import { describe, expect, it } from "vitest";
import { queryValue } from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { editing } from "./support/editing-provider.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";
import { rewriting } from "./support/rewriting-provider.js";

/**
 * Tokens a client sends a second time: to retry a page, or to resume from the final empty page.
 *
 * The token the final empty page gives is what the provider's own widget keeps to resume from when new
 * entries arrive (SERVICE-FACTS). The sandbox gives back the token it was sent; these providers give one
 * of their own (`RESUME`), and answer it as `resume` says: from the top again, refused, with an entry
 * nobody has seen yet, or with the empty page a resumed crawl finds when nothing is new.
 */
const AT = "2026-01-01" as IsoDay;
const LISTING = /\/(orders|payments|items)$/;
const RESUME = "RESUME";
type Resume = "from-the-top" | "refused" | "one-new-entry" | "nothing-new";

const tokenName = (query: URLSearchParams) =>
  [...query.keys()].find((name) => name.toLowerCase() === "continuationtoken");

function resuming(resume: Resume) {
  const resumes = (url: URL) => {
    const name = tokenName(url.searchParams);
    return name !== undefined && url.searchParams.get(name) === RESUME;
  };
  return editing({
    query: (query, asked) => {
      const name = tokenName(query);
      if (!name || !resumes(asked)) return;
      // The first page is asked for (and served as it is from the top), or a token the sandbox refuses.
      if (resume === "refused") query.set(name, "not-a-token");
      else query.delete(name);
    },
    body: (url, body) => {
      if (!LISTING.test(url.pathname) || !Array.isArray(body.data)) return body;
      if (resumes(url)) {
        const [first] = body.data as Record<string, unknown>[];
        if (resume === "one-new-entry") return { ...body, data: first ? [{ ...first, id: 99_999_999 }] : [] };
        if (resume === "nothing-new") return { ...body, data: [] };
        return body;
      }
      const name = tokenName(url.searchParams);
      return body.data.length === 0 && name
        ? { ...body, pagination: { ...(body.pagination as object), continuationToken: RESUME } }
        : body;
    },
  });
}

describe("the token the final empty page gives, sent back to resume", () => {
  it("flags a final token that starts the listing again, and one that is refused, on pagination/token-echoed alone", async () => {
    const top = problems(await verifySandbox(AT, { hooks: false, through: resuming("from-the-top") }));
    expect(checksIn(top)).toEqual(["pagination/token-echoed"]);
    expect(top[0]).toMatch(
      /v5\.form-items: the token the final empty page gave \(page \d+\), sent back to resume, served 20 entries the crawl already collected \(\d+, .*\): a client that resumes from it imports them twice/,
    );
    const refused = await verifySandbox(AT, { hooks: false, through: resuming("refused") });
    expect(checksIn(problems(refused))).toEqual(["pagination/token-echoed"]);
    const outcome = byId(refused, "pagination/token-echoed");
    expect(outcome?.reason).toMatch(
      /sent back to resume, was refused with 400: a client that keeps it to resume later cannot/,
    );
    expect(outcome?.evidence?.request?.url).toContain(`continuationToken=${RESUME}`);
  });

  it("passes a final token that resumes with nothing, or with entries that are new", async () => {
    for (const resume of ["nothing-new", "one-new-entry"] as const) {
      const report = await verifySandbox(AT, { hooks: false, through: resuming(resume) });
      expect(problems(report), resume).toEqual([]);
    }
  });
});

/**
 * A provider whose tokens are cursors it keeps (`moving`): each use moves the cursor on, so a token sent
 * again leads past the page it led to first; here its second use serves an entry the first did not.
 * `shift` plays instead a provider that counts offsets while an entry is added at the head: the page
 * comes back one entry further on.
 */
function cursors(kind: "moving" | "shift") {
  const uses = new Map<string, number>();
  return rewriting((query, entries) => {
    const token = queryValue(query, "continuationToken");
    if (token === undefined) return entries;
    const key = `${query.get("pageSize") ?? ""}|${token}`;
    const use = (uses.get(key) ?? 0) + 1;
    uses.set(key, use);
    if (use === 1 || entries.length === 0) return entries;
    return kind === "moving"
      ? entries.map((e) => ({ ...(e as object), id: 90_000_000 + use })).slice(0, 1)
      : entries.slice(1);
  });
}

describe("a token sent a second time, as a client retrying a page sends it", () => {
  it("flags a provider that leads a retried token to another page, on pagination/token-echoed alone", async () => {
    const found = problems(await verifySandbox(AT, { hooks: false, through: cursors("moving") }));
    expect(checksIn(found)).toEqual(["pagination/token-echoed"]);
    expect(found[0]).toMatch(
      /the token of page 2, sent a second time, led to another page \(90000002\) instead of page 2 again \(\d+, .*\): a client that retries a page skips one/,
    );
  });

  it("passes a page that comes back shifted by entries added meanwhile", async () => {
    expect(problems(await verifySandbox(AT, { hooks: false, through: cursors("shift") }))).toEqual([]);
  });
});
