import { afterEach, describe, expect, it } from "vitest";
import type { IsoDay } from "../../core/dates.js";
import { type FaultName, type RunningSandbox, startSandbox } from "../../sandbox/index.js";
import { allChecks } from "../../specs/index.js";
import { notificationPrerequisites } from "../../specs/notifications/session.js";
import type { CheckContext } from "../../specs/runner/context.js";
import { resolveOptions, type VerifyOptionsInput } from "../../specs/runner/options.js";
import { runVerify } from "../../specs/runner/run.js";
import { clientToken } from "../support/client-token.js";
import { startFormsListingProxy } from "./support/forms-listing-proxy.js";
import { byId, contract, problems, sandboxInput } from "./support/harness.js";

const AT = "2025-07-01" as IsoDay;
let running: RunningSandbox | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function hookless(fault?: FaultName): Promise<RunningSandbox> {
  running = await startSandbox({
    port: 0,
    at: AT,
    entries: 50,
    contract: contract(),
    hooks: false,
    ...(fault ? { fault } : {}),
  });
  return running;
}

async function verify(sandbox: RunningSandbox, extra: Partial<VerifyOptionsInput>) {
  const input = sandboxInput(sandbox, AT, { stateUrl: undefined, ...extra });
  return runVerify(resolveOptions(input), allChecks(), { contract: contract() });
}

/** The id of an order of the main form that holds an attached file (what an integrator would know). */
function orderWithFile(sandbox: RunningSandbox): string {
  const form = sandbox.core.store.mainForm;
  for (let index = 0; index < form.count; index++) {
    const order = sandbox.core.store.order(form.firstId + index);
    if (order?.answers.some((a) => a.fileId !== undefined)) return String(order.id);
  }
  throw new Error("the sandbox's main form has no order with a file");
}

/** An association registered today and not verified, as the provider's back office would make it. */
function addUnverified(sandbox: RunningSandbox): string {
  const slug = "toute-nouvelle-association";
  sandbox.core.store.addOrganization({
    slug,
    name: "Toute nouvelle association",
    type: "Association1901",
    registeredOn: AT,
    verified: false,
  });
  return slug;
}

describe("the flags that help verify a provider without our hooks", () => {
  it("the sandbox's hooks are off: no state URL, no clock, no admin endpoints", async () => {
    const sandbox = await hookless();
    expect(sandbox.stateUrl).toBeUndefined();
    for (const path of ["/_states", "/_clock", "/_notifications", "/_sink", "/_site/back"]) {
      expect((await fetch(`${sandbox.url}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${sandbox.url}/_clock`, { method: "POST", body: "{}" })).status).toBe(404);
  });

  it("--order-id names the order with a file: a detail leaving the file out is caught", async () => {
    const broken = await hookless("no-file-urls");
    const report = await verify(broken, { only: ["rights"], orderId: orderWithFile(broken) });
    expect(byId(report, "rights/order-detail-exposes-files")).toMatchObject({
      verdict: "fail",
      reason: expect.stringMatching(/--order-id/),
    });
    await broken.close();
    const clean = await hookless();
    const passed = await verify(clean, { only: ["rights"], orderId: orderWithFile(clean) });
    expect(problems(passed)).toEqual([]);
    expect(byId(passed, "rights/order-detail-exposes-files")?.reason).toMatch(/--order-id/);
  });

  it("--unverified-org names a new association: payments to it are judged at the date", async () => {
    const broken = await hookless("unverified-payments");
    const report = await verify(broken, {
      only: ["checkout/associations-verification"],
      unverifiedOrg: addUnverified(broken),
    });
    expect(byId(report, "checkout/associations-verification")).toMatchObject({
      verdict: "fail",
      reason: expect.stringMatching(/toute-nouvelle-association.*was accepted/),
    });
    await broken.close();
    const clean = await hookless();
    const passed = await verify(clean, {
      only: ["checkout/associations-verification"],
      unverifiedOrg: addUnverified(clean),
    });
    expect(byId(passed, "checkout/associations-verification")).toMatchObject({
      verdict: "pass",
      reason: expect.stringMatching(/^2 associations judged/),
    });
  });

  it("--empty-form names a form without orders; a form with orders is refused for that part, with the reason", async () => {
    const broken = await hookless("no-custom-fields");
    const report = await verify(broken, {
      only: ["public-form"],
      emptyForm: { formType: "Membership", formSlug: "adhesion-2025" },
    });
    expect(byId(report, "public-form/custom-fields-and-options")).toMatchObject({
      verdict: "fail",
      reason: expect.stringMatching(
        /^before the first order \(a form without orders, --empty-form\): .*empty customFields/,
      ),
    });
    await broken.close();
    const clean = await hookless();
    const passed = await verify(clean, {
      only: ["public-form"],
      emptyForm: { formType: "Membership", formSlug: "adhesion-2025" },
    });
    expect(byId(passed, "public-form/custom-fields-and-options")).toMatchObject({
      verdict: "pass",
      reason: expect.stringMatching(/^3 public forms judged/),
    });
    const withOrders = await verify(clean, {
      only: ["public-form"],
      emptyForm: { formType: "Event", formSlug: "gala-annuel" },
    });
    expect(byId(withOrders, "public-form/custom-fields-and-options")?.reason).toMatch(
      /--empty-form Event\/gala-annuel has orders/,
    );
    const unknown = await verify(clean, {
      only: ["public-form"],
      emptyForm: { formType: "Membership", formSlug: "no-such-form" },
    });
    expect(problems(unknown)).toEqual([]);
    expect(byId(unknown, "public-form/custom-fields-and-options")?.reason).toMatch(
      /--empty-form Membership\/no-such-form could not be read \(404\).*check its type and slug/,
    );
  });

  it("--receiver-url and --receiver-port: the receiver is registered at the public address given", async () => {
    const sandbox = await hookless();
    const port = await freePort();
    const report = await verify(sandbox, {
      only: ["notifications"],
      receiverPort: port,
      receiverUrl: `http://127.0.0.1:${port}/tunnel`,
    });
    expect(problems(report)).toEqual([]);
    expect(byId(report, "notifications/signature")?.verdict).toBe("pass");
    const registered = sandbox.core.store.registrations.map((r) => r.url);
    expect(
      registered.every((url) => url.startsWith(`http://127.0.0.1:${port}/tunnel/assopay-receiver/`)),
    ).toBe(true);
  });
});

describe("a form without orders found in the organization's forms", () => {
  const FORMS = [
    { formType: "Event", formSlug: "gala-annuel" },
    { formType: "Membership", formSlug: "adhesion-2025" },
  ];

  it("is judged for 'before the first order' without a flag; a stripped form is still caught", async () => {
    const clean = await hookless();
    const proxy = await startFormsListingProxy(clean.url, FORMS);
    try {
      const report = await verify(clean, { only: ["public-form", "schemas"], target: proxy.url });
      expect(problems(report)).toEqual([]);
      expect(proxy.asked).toBeGreaterThan(0);
      expect(byId(report, "public-form/custom-fields-and-options")?.reason).toMatch(
        /^3 public forms judged .*on Membership\/adhesion-2025/,
      );
    } finally {
      await proxy.close();
    }
    await clean.close();
    const broken = await hookless("no-custom-fields");
    const front = await startFormsListingProxy(broken.url, FORMS);
    try {
      const report = await verify(broken, { only: ["public-form"], target: front.url });
      expect(byId(report, "public-form/custom-fields-and-options")).toMatchObject({
        verdict: "fail",
        reason: expect.stringMatching(/which its orders answered/),
      });
    } finally {
      await front.close();
    }
  });
});

describe("the integrator's notification URLs", () => {
  it("are left as they were where there were none: the receiver's URLs are removed afterwards", async () => {
    const sandbox = await hookless();
    expect(sandbox.core.store.registrations).toEqual([]);
    const report = await verify(sandbox, { only: ["notifications"] });
    expect(problems(report)).toEqual([]);
    expect(byId(report, "notifications/signature")?.reason).toMatch(
      /removed the receiver's URL partner-wide \(none was registered before\); removed the receiver's URL for /,
    );
    expect(sandbox.core.store.registrations).toEqual([]);
  });

  it("are put back after verify registered its receiver in their place", async () => {
    const sandbox = await hookless();
    const token = await clientToken(sandbox.url, sandbox.credentials.reader);
    const put = (path: string, url: string) =>
      fetch(`${sandbox.url}/v5/partners/me/api-notifications${path}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url }),
      });
    const slug = sandbox.credentials.organizationSlug;
    expect((await put("", "https://integrator.example/hooks/all")).status).toBe(200);
    expect((await put(`/organizations/${slug}`, "https://integrator.example/hooks/org")).status).toBe(200);
    const report = await verify(sandbox, { only: ["notifications"] });
    expect(problems(report)).toEqual([]);
    expect(byId(report, "notifications/signature")?.reason).toMatch(
      /restored https:\/\/integrator\.example\/hooks\/all partner-wide; restored https:\/\/integrator\.example\/hooks\/org for /,
    );
    expect(sandbox.core.store.registrations.map((r) => [r.organizationSlug, r.url]).sort()).toEqual(
      [
        [slug, "https://integrator.example/hooks/org"],
        [null, "https://integrator.example/hooks/all"],
      ].sort(),
    );
  });
});

describe("notifications against a target off this machine", () => {
  const options = (extra: Partial<VerifyOptionsInput>) =>
    ({
      options: resolveOptions({
        target: "https://api.provider.example",
        at: AT,
        reader: { clientId: "a", clientSecret: "b" },
        organizationSlug: "o",
        formType: "Event",
        formSlug: "f",
        ...extra,
      }),
    }) as CheckContext;

  it("skip naming --receiver-url without it, and run with it", () => {
    expect(notificationPrerequisites(options({}))).toMatch(
      /api\.provider\.example cannot reach: give --receiver-url/,
    );
    expect(notificationPrerequisites(options({ receiverUrl: "https://tunnel.example" }))).toBeUndefined();
  });
});

async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
