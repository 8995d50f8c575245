import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A small Pact V4 file of the runner's own: partner information over HTTP, and an Order notification. */
export function writePact(options: { partnerStatus: number }): string {
  const dir = mkdtempSync(join(tmpdir(), "assopay-pacts-"));
  const pact = {
    consumer: { name: "assopay-test-consumer" },
    provider: { name: "association-payment-api-v5" },
    metadata: { pactSpecification: { version: "4.0" }, assopay: { asOf: "2024-12-15" } },
    interactions: [
      {
        type: "Synchronous/HTTP",
        description: "partner information with its notification URLs",
        pending: false,
        providerStates: [
          { name: "a partner with a notification URL" },
          { name: "an access token", params: { role: "reader" } },
        ],
        request: {
          method: "GET",
          path: "/v5/partners/me",
          headers: { Authorization: ["Bearer example-access-token"] },
          generators: {
            header: {
              Authorization: {
                type: "ProviderState",
                // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact expressions use ${…} literally
                expression: "Bearer ${accessToken}",
                dataType: "STRING",
              },
            },
          },
        },
        response: {
          status: options.partnerStatus,
          body: {
            content: { urlNotificationList: [{ url: "http://x", signatureKey: "k" }] },
            contentType: "application/json",
            encoded: false,
          },
          matchingRules: {
            body: {
              "$.urlNotificationList": { combine: "AND", matchers: [{ match: "type", min: 1 }] },
              "$.urlNotificationList[*].url": { combine: "AND", matchers: [{ match: "type" }] },
              "$.urlNotificationList[*].signatureKey": { combine: "AND", matchers: [{ match: "type" }] },
            },
          },
        },
      },
      {
        type: "Asynchronous/Messages",
        description: "an Order notification",
        pending: false,
        providerStates: [{ name: "an order is paid" }],
        contents: {
          content: { eventType: "Order", data: { id: 1 } },
          contentType: "application/json",
          encoded: false,
        },
        metadata: { contentType: "application/json" },
        matchingRules: { body: { "$.data.id": { combine: "AND", matchers: [{ match: "integer" }] } } },
      },
    ],
  };
  writeFileSync(
    join(dir, "assopay-test-consumer-association-payment-api-v5.json"),
    JSON.stringify(pact, null, 2),
  );
  return dir;
}
