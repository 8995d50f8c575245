import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { editing } from "./support/editing-provider.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";

/**
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
  }, 60_000);

  it("passes a final token that resumes with nothing, or with entries that are new", async () => {
    for (const resume of ["nothing-new", "one-new-entry"] as const) {
      const report = await verifySandbox(AT, { hooks: false, through: resuming(resume) });
      expect(problems(report), resume).toEqual([]);
    }
  }, 60_000);
});
