import {
  type Contract,
  type DatedRules,
  judgeSchema,
  type Route,
  SCHEMA_RULE,
} from "../../contracts/index.js";
import type { IsoDay } from "../../core/dates.js";
import { askedPageSize, type CrawlQuery, partialLastPageSize } from "./crawl-query.js";
import { type CrawlPlan, type CrawlResult, crawl } from "./crawler.js";
import type { HttpClient } from "./http.js";
import type { Memo } from "./memo.js";
import type { FormRef, VerifyOptions } from "./options.js";
import type { Progress } from "./progress.js";
import { type StateClient, stateString } from "./states.js";
import type { Role, TokenSource } from "./tokens.js";

/** The organization and form the checks read, and how many entries the form holds when known. */
export interface Coordinates {
  organizationSlug: string;
  formType: string;
  formSlug: string;
  /** Set when the "a form with entries" provider state seeded the form. */
  knownEntries: number | undefined;
  /**
   * The forms the same state seeded with CursorProof's boundary counts (`boundaryCounts`) in an
   * organization of their own (`BOUNDARY_ORGANIZATION`), so that the listings of the organization above
   * stay as they were; none without states.
   */
  boundaryForms: readonly FormPlace[];
}

/** A form named by its organization, type and slug. */
export interface FormPlace extends FormRef {
  readonly organizationSlug: string;
}

/** CursorProof's boundary listings around a page of `limit`: 0, 1, limit − 1, limit, limit + 1 and 2·limit + 1 entries. */
export const boundaryCounts = (limit: number) => [0, 1, limit - 1, limit, limit + 1, 2 * limit + 1];

/** The organization verify asks the provider state to seed the boundary listings in. */
export const BOUNDARY_ORGANIZATION = "assopay-boundary-listings";

/**
 * The boundary listings through the "a form with entries" state: a form of each of CursorProof's counts
 * around the default page size, in `BOUNDARY_ORGANIZATION`, where the state's answer puts it (the slug it
 * names). A count the state refuses, or answers without naming the form, is left out.
 */
async function seedBoundaryForms(states: StateClient, limit: number): Promise<FormPlace[]> {
  const forms: FormPlace[] = [];
  for (const count of boundaryCounts(limit)) {
    const seeded = await states.setup("a form with entries", {
      count,
      organizationSlug: BOUNDARY_ORGANIZATION,
    });
    if (!seeded.ok) continue;
    const [organizationSlug, formType, formSlug] = ["organizationSlug", "formType", "formSlug"].map((name) =>
      stateString(seeded.values, name),
    );
    if (organizationSlug && formType && formSlug) forms.push({ organizationSlug, formType, formSlug });
  }
  return forms;
}

/**
 * Which crawl of a listing: as a client would (no `withCount`), asking for the totals, as a client
 * that sends no `pageSize` even when `--page-size` is given (what the pact's requests do), or oldest
 * first (`sortOrder=Asc`, at the largest page size: the fewest requests).
 */
export type CrawlVariant = "default" | "with-count" | "unpaged" | "ascending";

/** What the progress line says of each crawl, and what the crawl judges call it (the default: by its page size). */
const CRAWLS: Readonly<Record<CrawlVariant, { readonly note: string; readonly name?: string }>> = {
  default: { note: "" },
  "with-count": { note: " (withCount=true)", name: "withCount=true" },
  unpaged: { note: " (no pageSize)" },
  ascending: { note: " (sortOrder=Asc)", name: "sortOrder Asc" },
};

/**
 * The most pages a crawl may take before it counts as never ending: `maxPages` at the listing's default
 * page size, and as many more at a smaller one as the same entries need (20/7 times as many at 7).
 */
export function pagesAllowed(route: Route, query: CrawlQuery, maxPages: number): number {
  const byDefault = route.pagination?.defaultPageSize ?? 20;
  const asked = askedPageSize(query) ?? byDefault;
  return asked > 0 && asked < byDefault ? Math.ceil((maxPages * byDefault) / asked) : maxPages;
}

/** Everything a check may use. Built once per run; shared work is memoised per run. */
export interface CheckContext {
  readonly contract: Contract;
  readonly options: VerifyOptions;
  readonly http: HttpClient;
  readonly tokens: TokenSource;
  /** Absent when the target offers no provider states. */
  readonly states: StateClient | undefined;
  readonly progress: Progress;
  readonly signal: AbortSignal;
  readonly memo: Memo;
  readonly at: IsoDay;
  coordinates(): Promise<Coordinates>;
  /** Full URL of a route, path parameters from the coordinates unless given. */
  urlOf(route: Route, params?: Readonly<Record<string, string | number>>): Promise<string>;
  datedRulesAt(route: Route): DatedRules;
  /** Listing routes served at the date (v3 ones only before their switch-off). */
  servedListings(): readonly Route[];
  crawl(route: Route, variant: CrawlVariant): Promise<CrawlResult>;
  /**
   * A crawl at a page size of the completeness checks; `again` crawls once more (a fresh crawl, not the
   * memoised one) under that label.
   */
  crawlSized(route: Route, pageSize: number, again?: string): Promise<CrawlResult>;
  /**
   * A crawl with the query a check asks for, under `label`, its token sent back as `tokenName` (default
   * `continuationToken`); memoised per run on all three.
   */
  crawlAsked(route: Route, query: CrawlQuery, label: string, tokenName?: string): Promise<CrawlResult>;
  /**
   * A crawl of another form's listing (`route` a form's listing, the organization the coordinates' unless
   * `form` names one), at the largest page size (at the default one with `defaultSize`; once more, under that note, with
   * `again`); memoised per run on the route, the form and `asked`.
   *
   * @example
   * await ctx.crawlOfForm(formItems, { formType: "Donation", formSlug: "collecte" });
   */
  crawlOfForm(
    route: Route,
    form: FormRef & { readonly organizationSlug?: string },
    asked?: { readonly defaultSize?: boolean; readonly again?: string },
  ): Promise<CrawlResult>;
  authorization(role: Role): Promise<string | undefined>;
  /** Registers clean-up work (receivers, servers) run when the run ends. */
  onClose(task: () => Promise<void> | void): void;
}

/** `url` asked with GET as the reader, as a client reads a listing. */
export const readerGet = async (ctx: Pick<CheckContext, "http" | "authorization">, url: string) =>
  ctx.http.send({ method: "GET", url, authorization: await ctx.authorization("reader") });

/** What a run hands over to build its context: the context's own parts. */
export type ContextParts = Pick<
  CheckContext,
  "contract" | "options" | "http" | "tokens" | "states" | "progress" | "signal" | "memo" | "onClose"
>;

/**
 * How one crawl is asked and named (the log keeps at most `--max-entries` unless `logEntries` says):
 * `params` fill the path where the coordinates should not.
 */
interface Asked extends Pick<CrawlPlan, "label" | "logEntries" | "logNames" | "tokenName"> {
  /** What the progress line says (default: the route and `label`). */
  readonly progressLabel?: string;
  readonly params?: Readonly<Record<string, string>>;
}

export function createContext(parts: ContextParts): CheckContext {
  const { contract, options, memo } = parts;
  const at = options.at;

  const coordinates = () =>
    memo.get<Coordinates>("coordinates", async () => {
      const fallback: Coordinates = {
        organizationSlug: options.organizationSlug,
        formType: options.formType,
        formSlug: options.formSlug,
        knownEntries: undefined,
        boundaryForms: [],
      };
      if (!parts.states) return fallback;
      const count = options.seededEntries;
      const answer = await parts.states.setup("a form with entries", { count });
      if (!answer.ok) return fallback;
      const values = answer.values;
      // Seeded before any check crawls: the partner's organizations listing gains the organization now.
      const limit = contract.routes.byId("v5.form-items").pagination?.defaultPageSize ?? 20;
      return {
        organizationSlug: stateString(values, "organizationSlug") ?? fallback.organizationSlug,
        formType: stateString(values, "formType") ?? fallback.formType,
        formSlug: stateString(values, "formSlug") ?? fallback.formSlug,
        knownEntries: typeof values.count === "number" ? values.count : count,
        boundaryForms: await seedBoundaryForms(parts.states, limit),
      };
    });

  const urlOf = async (route: Route, params: Readonly<Record<string, string | number>> = {}) => {
    const { organizationSlug, formType, formSlug } = await coordinates();
    const values = { organizationSlug, formType, formSlug, ...params };
    return `${options.target}${contract.routes.pathOf(route.id, values)}`;
  };

  const datedRulesAt = (route: Route) => contract.timeline.datedRulesAt(route, at);

  const crawlNow = async (route: Route, query: CrawlQuery, { progressLabel, params, ...asked }: Asked) => {
    const progress = progressLabel ?? `crawling ${route.id} (${asked.label})`;
    const where = await coordinates();
    try {
      return await crawl(parts.http, {
        route,
        url: await urlOf(route, params),
        query,
        knownEntries: route.pathParams.includes("formSlug") && !params ? where.knownEntries : undefined,
        maxPages: pagesAllowed(route, query, options.maxPages),
        timeLimitMs: options.crawlTimeLimitMs,
        authorization: () => parts.tokens.authorization("reader"),
        validate: (body) =>
          judgeSchema(contract.schemas, route, body).find((b) => b.rule === SCHEMA_RULE)?.diagnostics ?? [],
        onPage: (pages, entries) => parts.progress.update(progress, `${pages} pages, ${entries} entries`),
        signal: parts.signal,
        ...asked,
        logEntries: asked.logEntries ?? options.maxEntries,
      });
    } finally {
      parts.progress.done();
    }
  };

  /** A crawl memoised per run under `key`. */
  const crawlOnce = (key: string, route: Route, query: CrawlQuery, asked: Asked) =>
    memo.get(`crawl:${route.id}:${key}`, () => crawlNow(route, query, asked));

  const context: CheckContext = {
    ...parts,
    at,
    coordinates,
    urlOf,
    datedRulesAt,
    servedListings: () => contract.routes.listings().filter((route) => datedRulesAt(route).served),
    authorization: (role) => parts.tokens.authorization(role),
    crawl(route, asked) {
      // Without --page-size an unpaged crawl is the default one: the same requests, crawled once.
      const variant = asked === "unpaged" && options.pageSize === undefined ? "default" : asked;
      return memo.get(`crawl:${route.id}:${variant}`, async () => {
        const query: [string, string][] = [];
        if (variant === "with-count") query.push(["withCount", "true"]);
        if (variant === "ascending") {
          query.push(["sortOrder", "Asc"], ["pageSize", String(route.pagination?.maxPageSize ?? 100)]);
        } else if (options.pageSize !== undefined && variant !== "unpaged") {
          query.push(["pageSize", String(options.pageSize)]);
        } else if (variant === "with-count") {
          // Totals are judged on this crawl: at a size where the listing's last page is partial, so that
          // totalPages rounded the wrong way shows (an even count divides the default size).
          const byDefault = route.pagination?.defaultPageSize ?? 20;
          const size = partialLastPageSize((await context.crawl(route, "default")).entries, byDefault);
          if (size !== undefined) query.push(["pageSize", String(size)]);
        }
        const size = askedPageSize(query);
        const name =
          variant === "with-count" && size !== undefined ? `withCount=true, pageSize ${size}` : undefined;
        return crawlNow(route, query, {
          progressLabel: `crawling ${route.id}${CRAWLS[variant].note}`,
          label: name ?? CRAWLS[variant].name,
          // The unpaged crawl is the pact's walk and keeps no log; the others are judged as a whole.
          ...(variant === "unpaged" ? { logEntries: 0 } : {}),
          logNames: variant === "default",
        });
      });
    },
    crawlSized(route, pageSize, again) {
      return crawlOnce(`size:${pageSize}:${again ?? ""}`, route, [["pageSize", String(pageSize)]], {
        progressLabel: `crawling ${route.id} (pageSize ${pageSize}${again ? `, ${again}` : ""})`,
        label: `pageSize ${pageSize}${again ? ` (${again})` : ""}`,
        logNames: again !== undefined,
      });
    },
    crawlAsked(route, query, label, tokenName) {
      const asked = query.map((pair) => pair.join("=")).join("&");
      return crawlOnce(`asked:${label}:${asked}:${tokenName ?? ""}`, route, query, {
        label,
        tokenName,
      });
    },
    crawlOfForm(route, { formType, formSlug, organizationSlug }, { defaultSize, again } = {}) {
      const size = route.pagination?.maxPageSize ?? 100;
      const sized = defaultSize ? "the default page size" : `pageSize ${size}`;
      const form = `${formType}/${formSlug}${organizationSlug ? ` of ${organizationSlug}` : ""}`;
      const query: [string, string][] = defaultSize ? [] : [["pageSize", String(size)]];
      return crawlOnce(`form:${form}:${sized}:${again ?? ""}`, route, query, {
        label: `${form}, ${sized}${again ? ` (${again})` : ""}`,
        params: { formType, formSlug, ...(organizationSlug ? { organizationSlug } : {}) },
      });
    },
  };
  return Object.freeze(context);
}
