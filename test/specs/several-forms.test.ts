import { describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { buildSandboxData, parseDataFile } from "../../sandbox/index.js";
import { docExample } from "../support/data-example.js";
import { editing } from "./support/editing-provider.js";
import { byId, checksIn, problems, verifySandbox } from "./support/harness.js";

/**
 * Verify on an organization whose entries come from several forms: docs/sandbox.md's data file, whose
 * main form `Membership/adhesion-2025` has 45 orders and `Event/rencontre-auteurs` two. On the ready-made
 * data one form holds every entry, so an organization's listing and its form's are the same list, and a
 * provider that serves one for the other cannot show it there.
 */
const data = () => {
  const { text, file } = docExample();
  return buildSandboxData(parseDataFile(text, file), 1);
};
const AT = "2026-01-01" as IsoDay;
const FORM_PATH = /\/forms\/[^/]+\/[^/]+\/(items|orders|payments)$/;
const ORGANIZATION_PATH = /^\/v5\/organizations\/[^/]+\/(items|orders|payments)$/;

/** Verify without provider states on the data file, through a provider that asks `path(asked)` instead. */
const verifyData = (path?: (asked: string) => string) =>
  verifySandbox(AT, { hooks: false, data: data(), ...(path ? { through: editing({ path }) } : {}) });

describe("verify on an organization whose entries come from several forms", () => {
  it("passes the sandbox serving them, without provider states, and judges the other form's entries", async () => {
    const report = await verifyData();
    expect(problems(report)).toEqual([]);
    expect(byId(report, "pagination/organization-holds-forms")?.reason).toContain(
      "v5.org-orders holds the 45 entries of v5.form-orders (47 in all), and the 2 entries of 1 other form",
    );
  });

  it("passes a provider that refuses the other form's listings: they vouch for nothing", async () => {
    const report = await verifyData((path) =>
      path.replace("/forms/Event/rencontre-auteurs/", "/forms/Event/not-served/"),
    );
    expect(problems(report)).toEqual([]);
    expect(byId(report, "pagination/organization-holds-forms")?.reason).toContain(
      "v5.org-orders holds the 45 entries of v5.form-orders (47 in all);",
    );
  });

  it("flags a form's listing that serves its organization's, naming an entry of the other form", async () => {
    // Each form's listing answered with its organization's.
    const report = await verifyData((path) =>
      FORM_PATH.test(path) ? path.replace(/\/forms\/[^/]+\/[^/]+/, "") : path,
    );
    const found = problems(report);
    // The form's listing is the organization's here, so its token is one the organization's listing
    // accepts: pagination/token-bound is true of this provider too, and names that pair.
    expect(checksIn(found)).toEqual(["pagination/form-holds-its-entries", "pagination/token-bound"]);
    expect(found.find((line) => line.startsWith("pagination/form-holds-its-entries"))).toMatch(
      /served 2 entries of another form \(\d+, \d+; the first names event\/rencontre-auteurs\)/,
    );
  });

  it("flags an organization's listing that serves its main form's, naming an entry of the other form", async () => {
    // Each organization listing answered with the announced form's listing.
    const report = await verifyData((path) =>
      ORGANIZATION_PATH.test(path)
        ? path.replace(/\/(items|orders|payments)$/, "/forms/Membership/adhesion-2025/$1")
        : path,
    );
    const found = problems(report);
    expect(checksIn(found)).toEqual(["pagination/organization-holds-forms"]);
    expect(found[0]).toMatch(
      /2 of the 2 entries of v5\.form-\w+ for Event\/rencontre-auteurs are missing from v5\.org-\w+ \(\d+, \d+\)/,
    );
  });

  it("flags an organization's listings that serve another organization's entries", async () => {
    // The organization's listings answered with the ready-made organization's, as a provider that
    // ignores the slug in the path.
    const report = await verifyData((path) =>
      ORGANIZATION_PATH.test(path) ? path.replace("/club-des-lecteurs/", "/amis-du-bac-a-sable/") : path,
    );
    const found = problems(report);
    expect(checksIn(found)).toContain("rights/own-organization-entries");
    expect(found.find((p) => p.startsWith("rights/own-organization-entries"))).toMatch(
      /v5\.org-\w+ of club-des-lecteurs served \d+ entries of another organization \(.*; the first names amis-du-bac-a-sable\)/,
    );
  });
});
