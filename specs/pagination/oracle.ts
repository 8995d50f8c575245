import type { Contract, EntryId, Oracle, Route } from "../../contracts/index.js";
import { AssopayError } from "../../core/errors.js";
import { expectOwnFormat, readYamlFile } from "../../core/yaml-file.js";
import type { CheckContext } from "../runner/context.js";
import type { OracleFile } from "../runner/options.js";

const EXAMPLE = "for example: v5.form-orders: [10000012, 10000031]";

/**
 * Reads `verify --oracle FILE`: a YAML (or JSON) map from listing route ids (`assopay contracts`) to
 * the ids each listing must hold: an entry's integer `id`, or where the listing's entries carry none
 * (an organization's forms) its `Type/slug`. Any mistake exits 2 with the file, the line and a hint.
 *
 * @example
 * readOracle("oracle.yaml", contract); // { file, listings: { "v5.form-orders": [10000012] } }
 */
export function readOracle(file: string, contract: Contract): OracleFile {
  const yaml = readYamlFile(file, "bad-input", "verify oracle");
  const fail = (message: string, path: readonly (string | number)[], hint: string): never => {
    throw new AssopayError("bad-input", message, { location: { file, line: yaml.lineOf(path) }, hint });
  };
  const routes = contract.routes.listings().map((route) => route.id);
  // A file of another format (a link to /etc/shadow) is refused without a word of it.
  expectOwnFormat(yaml, routes, { code: "bad-input", what: "verify oracle", hint: EXAMPLE });
  const { data } = yaml;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return fail("the oracle file is not a map from listing route ids to lists of ids", [], EXAMPLE);
  }
  const listings: Record<string, EntryId[]> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!routes.includes(key)) {
      fail(
        `${JSON.stringify(key.slice(0, 60))} is not a listing route of the contract`,
        [key],
        `one of ${routes.join(", ")}`,
      );
    }
    if (!Array.isArray(value) || value.length === 0) {
      fail(`${key} is not a list of ids`, [key], EXAMPLE);
    }
    listings[key] = (value as unknown[]).map((id, i) => {
      if (Number.isSafeInteger(id)) return id as number;
      if (typeof id === "string" && /^\d+$/.test(id)) return Number(id);
      if (typeof id === "string" && id.trim() !== "") return id;
      return fail(
        `${key}[${i}] is not an id`,
        [key, i],
        "an entry's integer id, or for an organization's forms its Type/slug (Event/gala-annuel)",
      );
    });
  }
  if (Object.keys(listings).length === 0) fail("the oracle file names no listing", [], EXAMPLE);
  return Object.freeze({ file, listings: Object.freeze(listings) });
}

/**
 * The oracle of a listing as verify crawls it: the ids `--oracle` gives for its route, when the crawl is
 * of the organization and form they were given for (not a form a provider state seeded); `note` says
 * why an oracle given for the route is not judged, or what was (empty without one).
 */
export async function oracleOf(
  ctx: CheckContext,
  route: Route,
): Promise<{ readonly oracle: Oracle | undefined; readonly note: string }> {
  const given = ctx.options.oracle;
  const ids = given?.listings[route.id];
  if (!given || !ids) return { oracle: undefined, note: "" };
  const where = await ctx.coordinates();
  const { organizationSlug, formType, formSlug } = ctx.options;
  const ofForm = route.pathParams.includes("formSlug");
  const crawled = ofForm ? `${where.formType}/${where.formSlug}` : where.organizationSlug;
  const asked = ofForm ? `${formType}/${formSlug}` : organizationSlug;
  if (where.organizationSlug !== organizationSlug || crawled !== asked) {
    return {
      oracle: undefined,
      note: `the oracle ${given.file} was not judged on ${route.id}: it names ${asked}'s entries, and the crawls were of ${crawled} (the provider state's)`,
    };
  }
  return {
    oracle: { source: given.file, ids },
    note: `${route.id} holds the ${ids.length} ${ids.length === 1 ? "entry" : "entries"} of the oracle ${given.file}`,
  };
}
