import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { offLoopback } from "../../core/http/loopback.js";
import { packageRoot } from "../../core/paths.js";

const PACTS = join(packageRoot(), "contracts", "pacts");

/** Every http(s) URL in the request bodies of a Pact file's interactions: what a provider would call. */
function requestUrls(pact: { interactions?: { description?: string; request?: { body?: unknown } }[] }) {
  const urls: { description: string; url: string }[] = [];
  const walk = (value: unknown, description: string): void => {
    if (typeof value === "string" && /^https?:\/\//i.test(value)) urls.push({ description, url: value });
    else if (Array.isArray(value)) for (const item of value) walk(item, description);
    else if (value !== null && typeof value === "object")
      for (const item of Object.values(value)) walk(item, description);
  };
  for (const interaction of pact.interactions ?? [])
    walk(interaction.request?.body, interaction.description ?? "");
  return urls;
}

describe("the shipped Pact files register receivers on loopback only", () => {
  // Checkout intents carry backUrl/returnUrl/errorUrl too: pages a payer's browser is sent to, which the
  // provider never calls, so only the registrations' URLs are held to loopback.
  it("every notification URL a registration's body carries is a loopback one", async () => {
    const files = (await readdir(PACTS)).filter((name) => name.endsWith(".json"));
    expect(files.length).toBeGreaterThan(0);
    let registrations = 0;
    for (const file of files) {
      const pact = JSON.parse(await readFile(join(PACTS, file), "utf8")) as Parameters<typeof requestUrls>[0];
      for (const { description, url } of requestUrls(pact)) {
        if (!description.startsWith("notification URL registration")) continue;
        expect(offLoopback(url), `${file}: ${description}: ${url}`).toBeUndefined();
        registrations += 1;
      }
    }
    // Two registrations (partner-wide and per organization) in each file.
    expect(registrations).toBe(files.length * 2);
  });

  it("the check flags a registration off the machine, as the files once had", () => {
    const pact = {
      interactions: [
        {
          description: "notification URL registration",
          request: { body: { content: { url: "https://example.org/assopay/hook" } } },
        },
      ],
    };
    const urls = requestUrls(pact);
    expect(urls).toHaveLength(1);
    expect(offLoopback(urls[0]?.url ?? "")).toBe("example.org is not a loopback address");
  });
});
