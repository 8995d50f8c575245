import { basename } from "node:path";
import { PROVIDER } from "../../contracts/pact/generate.js";
import { ACCESS_TOKEN_STATE } from "../../contracts/pact/interaction.js";
import { messageDescription } from "../../contracts/pact/message-interactions.js";
import { notificationSession } from "../notifications/session.js";
import type { CheckContext } from "../runner/context.js";
import { parseJsonBuffer } from "../runner/http.js";
import type { TargetAuth } from "../runner/options.js";
import { noAdminReason } from "../runner/tokens.js";
import type { CheckResult } from "../runner/types.js";
import { fail, pass, skip, specCheck } from "../runner/verdicts.js";
import type { BrokerSource, CapturedMessage, PactChildConfig } from "./child-protocol.js";
import {
  answerState,
  notCaught,
  planBy,
  planInteractions,
  resolvedPath,
  type Skipped,
} from "./discovered-states.js";
import { discoverValues } from "./discovered-values.js";
import { eventTypeOf, type PactFile, type PactInteraction, pactFilesAt } from "./pact-files.js";
import { startStateServer } from "./state-server.js";
import { type PathOf, runChild } from "./verifier-run.js";

/** Real notification bodies by eventType, to answer the pact's message interactions. */
async function capturedMessages(ctx: CheckContext): Promise<Map<string, CapturedMessage>> {
  const found = new Map<string, CapturedMessage>();
  const session = await notificationSession(ctx);
  if (!session.ok) return found;
  for (const delivery of session.triggers.flatMap((t) => t.deliveries)) {
    const parsed = parseJsonBuffer(delivery.body);
    const eventType = parsed.ok ? (parsed.value as { eventType?: unknown } | null)?.eventType : undefined;
    if (typeof eventType !== "string" || found.has(eventType)) continue;
    const signature = delivery.headers["x-ha-signature"];
    found.set(eventType, {
      content: parsed.ok ? parsed.value : undefined,
      metadata: {
        contentType: "application/json",
        ...(typeof signature === "string" ? { "x-ha-signature": signature } : {}),
      },
    });
  }
  return found;
}

/** Whether the interaction asks the provider state for an `organization_admin` access token. */
function usesAdmin(interaction: PactInteraction): boolean {
  return (interaction.providerStates ?? []).some(
    (s) => s.name === ACCESS_TOKEN_STATE && s.params?.role === "admin",
  );
}

/** Captured notifications keyed by the prefix of the contract's message descriptions. */
function byPrefix(
  ctx: CheckContext,
  messages: Map<string, CapturedMessage>,
): PactChildConfig["messagesByPrefix"] {
  return ctx.contract.notificationTypes.flatMap((type) => {
    const message = messages.get(type.eventType);
    return message ? [{ prefix: messageDescription(type), message }] : [];
  });
}

/**
 * The pacts a Pact Broker holds for the provider, verified against the target by Pact's own verifier,
 * the results published back to the broker (`assopay verify --publish-results`).
 */
async function verifyFromBroker(
  ctx: CheckContext,
  stateUrl: string,
  broker: BrokerSource,
): Promise<CheckResult> {
  const messagesByPrefix = byPrefix(ctx, await capturedMessages(ctx));
  const source = { broker, provider: PROVIDER, stateUrl, messages: {}, messagesByPrefix };
  const { failed, output } = await runChild(ctx, source, `the pacts of ${broker.url}`, "the");
  if (failed) return failed;
  // The verifier only logs a failed publication; the run must not claim what did not happen.
  const refused = /Publishing of verification results failed[^\n]*/.exec(output);
  if (refused) {
    return fail(`the pacts held, but the broker did not take the results`, {
      request: { method: "POST", url: broker.url },
      diagnostics: [refused[0]],
    });
  }
  return pass(
    `the broker's pacts verified; results published as ${PROVIDER} version ${broker.providerVersion}`,
  );
}

/** What one Pact file gives the verifier: the interactions kept, the others, and the state URL. */
type PactPlan = ReturnType<typeof planBy> & {
  stateUrl: string;
  /** The path a failing interaction was sent to, when verify knows its state values. */
  pathOf?: PathOf;
  close(): Promise<void>;
};

/**
 * Why a target that authenticates without a token endpoint (`--bearer`, `--no-auth`) is not sent an
 * interaction of that endpoint; undefined when it is sent.
 */
export function tokenEndpointSkip(auth: TargetAuth, interaction: PactInteraction): string | undefined {
  if (auth.kind === "token-endpoint" || interaction.request?.path !== "/oauth2/token") return undefined;
  return `the target has no token endpoint: verify authenticates to it with ${auth.kind === "bearer" ? "--bearer" : "--no-auth"}`;
}

/**
 * With the target's states: all but admin interactions without an admin client, token requests to a
 * target without a token endpoint, and uncaught messages.
 */
function planWithStates(
  ctx: CheckContext,
  pact: PactFile,
  events: ReadonlySet<string>,
  stateUrl: string,
): PactPlan {
  const sorted = planBy(
    pact.interactions,
    (interaction) =>
      notCaught(interaction, events) ??
      tokenEndpointSkip(ctx.options.auth, interaction) ??
      (usesAdmin(interaction) && !ctx.tokens.has("admin") ? noAdminReason(ctx.options.auth) : undefined),
  );
  return { ...sorted, stateUrl, close: async () => {} };
}

/**
 * Without states: the values the states would answer, discovered through the target's public API, and
 * a state endpoint of verify's own on 127.0.0.1 answering from them.
 */
async function planWithoutStates(
  ctx: CheckContext,
  pact: PactFile,
  events: ReadonlySet<string>,
): Promise<PactPlan> {
  ctx.progress.update("pact", `discovering the values of ${basename(pact.file)}'s provider states`);
  const found = await discoverValues(ctx, pact.interactions, events);
  ctx.progress.done();
  const server = await startStateServer((state, params) => answerState(found, state, params));
  return {
    ...planInteractions(found, pact.interactions),
    stateUrl: server.url,
    pathOf: (interaction) => resolvedPath(found, interaction),
    close: () => server.close(),
  };
}

/** Verifies the kept interactions of one pact file; the failed verdict, if any. */
async function verifyKept(
  ctx: CheckContext,
  pact: PactFile,
  plan: PactPlan,
  messages: ReadonlyMap<string, CapturedMessage>,
): Promise<CheckResult | undefined> {
  const answers: PactChildConfig["messages"] = {};
  for (const interaction of plan.kept) {
    const eventType = eventTypeOf(interaction);
    const captured = typeof eventType === "string" ? messages.get(eventType) : undefined;
    if (interaction.type !== "Synchronous/HTTP" && captured) answers[interaction.description] = captured;
  }
  const source = { broker: undefined, provider: pact.provider, stateUrl: plan.stateUrl, messages: answers };
  const local = { pact, kept: plan.kept, pathOf: plan.pathOf };
  const count = String(plan.kept.length);
  return (await runChild(ctx, { ...source, messagesByPrefix: [] }, basename(pact.file), count, local)).failed;
}

/** The skipped interactions grouped by reason: `reason (n: "a", "b")`, the era suffix left out. */
export function groupSkipped(skipped: readonly Skipped[]): string {
  const groups = new Map<string, string[]>();
  for (const { description, reason } of skipped) {
    const short = description.replace(/ \(as of \d{4}-\d{2}-\d{2}\)$/, "");
    groups.set(reason, [...(groups.get(reason) ?? []), `"${short}"`]);
  }
  return [...groups].map(([reason, names]) => `${reason} (${names.length}: ${names.join(", ")})`).join("; ");
}

/**
 * The Pact files of `contracts/pacts/` for the date (or a broker's pacts with `--publish-results`),
 * verified against the target by Pact's own verifier. Provider states (access tokens included) go
 * through the target's state URL; without one, through verify's own state endpoint answering with
 * values discovered through the target's public API, the interactions it cannot answer skipped with
 * the reason. Message interactions are answered with the target's real notifications when the
 * notification receiver caught them.
 */
export const verifyPactsCheck = specCheck({
  id: "pact/verify",
  rule: "pact.interactions",
  title: "The Pact files hold against the target (Pact verifier)",
  async run(ctx) {
    if (ctx.contract.shapes === "document") {
      return skip("the Pact files speak the seed's shapes; --shapes document is judged by the schema checks");
    }
    const broker = ctx.options.pactBroker;
    if (broker) {
      if (!ctx.states)
        return skip("a broker's pacts are verified through the target's provider states (--state-url)");
      return verifyFromBroker(ctx, ctx.states.url, broker);
    }
    const pacts = pactFilesAt(ctx.options.pactDir, ctx.at);
    if (pacts.length === 0) return skip(`no Pact files in ${ctx.options.pactDir}`);
    const messages = await capturedMessages(ctx);
    const events = new Set(messages.keys());
    const skipped: Skipped[] = [];
    let verified = 0;
    for (const pact of pacts) {
      const plan = ctx.states
        ? planWithStates(ctx, pact, events, ctx.states.url)
        : await planWithoutStates(ctx, pact, events);
      try {
        skipped.push(...plan.skipped);
        if (plan.kept.length === 0) continue;
        const failed = await verifyKept(ctx, pact, plan, messages);
        if (failed) return failed;
        verified += plan.kept.length;
      } finally {
        await plan.close();
      }
    }
    const left = skipped.length > 0 ? `${skipped.length} skipped: ${groupSkipped(skipped)}` : "";
    if (verified === 0) return skip(left || "no interaction to verify");
    const how = ctx.states
      ? ""
      : ` without provider states (values found through the target's API; the service date is the target's own, judged as of ${ctx.at})`;
    return pass(`${verified} interactions verified${how}${left ? `; ${left}` : ""}`);
  },
});
