import type { ProviderFormat } from "./provider-formats.js";
import { rep } from "./shape.js";
import { looksRandom } from "./token-shape.js";

/**
 * Webhook URLs whose path is the secret: whoever holds one can post to the channel or start the flow.
 * Integrators point the service's notifications at them (a Zapier or Discord hook), so they travel in
 * request bodies. Each follows the URL its provider documents for incoming webhooks; the whole URL is
 * replaced, as Slack's is (`formats.ts`).
 */
export const WEBHOOK_FORMATS: readonly Omit<ProviderFormat, "origin" | "secret">[] = Object.freeze([
  {
    id: "discord-webhook",
    pattern: /https:\/\/(?:canary\.|ptb\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/[\w-]{60,90}/g,
    literals: ["discord.com/api/webhooks/", "discordapp.com/api/webhooks/"],
    example: `https://${"discord"}.com/api/webhooks/123456789012345678/${rep("aB3-_xY9", 68)}`,
  },
  {
    // Microsoft Teams incoming webhooks (Office 365 connectors).
    id: "teams-webhook",
    pattern:
      /https:\/\/[\w-]+\.webhook\.office\.com\/webhookb2\/[\w@-]{36,100}\/IncomingWebhook\/[0-9a-f]{32}\/[\w-]{36}(?:\/[\w-]{20,80})?/g,
    literals: [".webhook.office.com/webhookb2/"],
    example: `https://contoso.${"webhook"}.office.com/webhookb2/${rep("0a1b2c3d-", 36)}@${rep("4e5f6789-", 36)}/IncomingWebhook/${rep("0123456789abcdef", 32)}/${rep("89ab-cdef", 36)}`,
  },
  {
    // Zapier's catch hooks: an account number and a hook id.
    id: "zapier-webhook",
    pattern: /https:\/\/hooks\.zapier\.com\/hooks\/catch\/\d{4,12}\/[a-z0-9]{5,12}\/?/g,
    literals: ["hooks.zapier.com/hooks/catch/"],
    example: `https://hooks.${"zapier"}.com/hooks/catch/1234567/ab12cd3/`,
  },
  {
    // Mattermost (and Rocket.Chat's look-alike) incoming webhooks, on an association's own server: any
    // host, `/hooks/` and a 26-character id of lower-case letters and digits that reads as random.
    id: "mattermost-webhook",
    pattern: /https?:\/\/[\w.-]+(?::\d+)?(?:\/[\w.-]+)*\/hooks\/[a-z0-9]{26}(?![\w-])/g,
    literals: ["/hooks/"],
    accept: (url) => looksRandom(url.slice(-26)),
    example: `https://chat.example.org/${"hooks"}/${rep("k3m9x1q7w5", 26)}`,
  },
]);
