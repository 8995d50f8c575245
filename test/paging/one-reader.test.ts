import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
/** The one place that reads a continuation token out of a listing body. */
const READER = "contracts/paging/page.ts";
/**
 * Left alone on purpose: a client written from the provider's document alone (it must not share our
 * reader, or it would not catch the sandbox drifting from the document), and test files, which assert
 * on the tokens of the pages they get.
 */
const INDEPENDENT = new Set(["test/fidelity/document-client.ts"]);

function sources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", "dist", ".git", ".scratch", "fixtures"].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sources(path));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

/**
 * The places a file reads `continuationToken` as a property of an object (`x.continuationToken`,
 * `x?.continuationToken`, `x["continuationToken"]`, `{ continuationToken } = x`); writes (`x.… =`,
 * `delete x.…`) and comments are not reads.
 */
function tokenReads(text: string): string[] {
  const reads: string[] = [];
  text.split("\n").forEach((line, n) => {
    const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "");
    const bare = code.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
    const access = /(?<!delete\s+[\w.?]*)\??\.continuationToken\b(?!\s*=[^=])/;
    const bracket = /\[\s*["']continuationToken["']\s*\](?!\s*=[^=])/;
    const destructure = /\{[^}]*\bcontinuationToken\b[^}]*\}\s*=[^=>]/;
    if (access.test(bare) || bracket.test(code) || destructure.test(bare))
      reads.push(`${n + 1}: ${line.trim()}`);
  });
  return reads;
}

describe("one reader of the continuation token", () => {
  it("tells reads from writes and comments", () => {
    expect(tokenReads("const t = body.pagination?.continuationToken;")).toHaveLength(1);
    expect(tokenReads('const t = p["continuationToken"];')).toHaveLength(1);
    expect(tokenReads("const { continuationToken } = pagination;")).toHaveLength(1);
    expect(tokenReads("if (x) pagination.continuationToken = token;")).toEqual([]);
    expect(tokenReads("delete pagination.continuationToken;")).toEqual([]);
    expect(tokenReads(" * follow `pagination.continuationToken` until then")).toEqual([]);
    expect(tokenReads("const page = { continuationToken: next };")).toEqual([]);
    expect(tokenReads('const end = "follow pagination.continuationToken";')).toEqual([]);
  });

  it(`no file but ${READER} reads a token out of a listing body (test files aside)`, () => {
    const offenders: string[] = [];
    for (const file of sources(ROOT)) {
      const path = relative(ROOT, file);
      if (path === READER || INDEPENDENT.has(path) || path.endsWith(".test.ts")) continue;
      for (const read of tokenReads(readFileSync(file, "utf8"))) offenders.push(`${path}:${read}`);
    }
    expect(offenders).toEqual([]);
  });
});

/**
 * The places a file takes a listing's result array out of a body by its name (`body[resultArray]`,
 * `body?.[route.pagination?.resultArray ?? "data"]`) or an entry out of it by the array's literal name
 * (`(body as { data?: Entry[] }).data?.[0]`); a computed key that writes one (`{ [resultArray]: list }`),
 * the catalogue's own `pagination.resultArray` and a path in a string or a comment are not reads.
 */
function resultArrayReads(text: string): string[] {
  const reads: string[] = [];
  text.split("\n").forEach((line, n) => {
    const code = line
      .replace(/\/\/.*$/, "")
      .replace(/\/\*.*?\*\//g, "")
      .replace(/^\s*\*.*$/, "");
    const bare = code.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
    if (
      /(?:[\w)\]]|\?\.)\[[^\]]*\bresultArray\b[^\]]*\]/.test(code) ||
      /\.(?:data|items)(?:\?\.)?\[\d+\]/.test(bare)
    )
      reads.push(`${n + 1}: ${line.trim()}`);
  });
  return reads;
}

/** The legal-variants proxy rewrites the sandbox's pages: it stands for a provider, not a reader. */
const REWRITES_PAGES = new Set(["test/specs/support/transforming-proxy.ts"]);

describe("one reader of the result array", () => {
  it("tells reads from writes", () => {
    expect(resultArrayReads('const list = body?.[route.pagination?.resultArray ?? "data"];')).toHaveLength(1);
    expect(resultArrayReads("const list = (body as Record<string, unknown>)[resultArray];")).toHaveLength(1);
    expect(resultArrayReads("const page = { [resultArray]: list, pagination };")).toEqual([]);
    expect(resultArrayReads('const name = route.pagination?.resultArray ?? "data";')).toEqual([]);
    expect(resultArrayReads("const entry = (body as { data?: Entry[] }).data?.[0];")).toHaveLength(1);
    expect(resultArrayReads("const item = page.items[2];")).toHaveLength(1);
    expect(resultArrayReads('const path = "response.data[0].id";')).toEqual([]);
    expect(resultArrayReads("/** `response.data[0].payer` as a pointer. */")).toEqual([]);
  });

  it(`no file but ${READER} takes the result array out of a body (test files aside)`, () => {
    const offenders: string[] = [];
    for (const file of sources(ROOT)) {
      const path = relative(ROOT, file);
      if (path === READER || INDEPENDENT.has(path) || REWRITES_PAGES.has(path) || path.endsWith(".test.ts"))
        continue;
      for (const read of resultArrayReads(readFileSync(file, "utf8"))) offenders.push(`${path}:${read}`);
    }
    expect(offenders).toEqual([]);
  });
});
