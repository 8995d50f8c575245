import { SIGNATURE_HEADER } from "../../core/notification-signature.js";
import type { NotificationType } from "../types.js";
import { componentRef, type JsonSchema } from "./schemas.js";

/**
 * The notifications as OpenAPI `webhooks`, one per type: the envelope with its `eventType` fixed and the
 * signature header required. Types whose identifier the seed does not publish say so (`x-assopay-assumed`).
 */
export function webhooks(types: readonly NotificationType[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const type of types) {
    out[type.eventType] = {
      post: {
        operationId: `notification.${type.id}`,
        summary: type.meaning,
        description: `Sent when ${type.trigger}. Verify ${SIGNATURE_HEADER} before trusting the body.`,
        parameters: [
          {
            name: SIGNATURE_HEADER,
            in: "header",
            required: true,
            description:
              "HMAC-SHA256 of the exact body bytes, in hex, keyed with the signing key of the notification URL (see GET /v5/partners/me).",
            schema: { type: "string", pattern: "^[0-9a-f]{64}$" },
          },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                allOf: [componentRef("notification")],
                properties: { eventType: { const: type.eventType } },
              },
            },
          },
        },
        responses: {
          "2XX": { description: "Received. Any other status, or no answer, makes the service try again." },
        },
        security: [],
        "x-assopay-assumed": type.assumed,
      },
    };
  }
  return out;
}
