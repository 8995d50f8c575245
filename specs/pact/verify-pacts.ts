import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { HttpMethod } from "../../contracts/index.js";
import { PROVIDER } from "../../contracts/pact/generate.js";
import { ACCESS_TOKEN_STATE } from "../../contracts/pact/interaction.js";
import { messageDescription } from "../../contracts/pact/message-interactions.js";
import { notificationSession } from "../notifications/session.js";
import type { CheckContext } from "../runner/context.js";
import { parseJsonBuffer } from "../runner/json.js";
import type { Evidence } from "../runner/types.js";
import { fail, pass, type SpecCheck, skip } from "../runner/verdicts.js";
import type { BrokerSource, CapturedMessage, PactChildConfig } from "./child-protocol.js";
import { type PactFile, type PactInteraction, pactFilesAt } from "./pact-files.js";
import { runPactChild } from "./run-child.js";

const TIMEOUT_MS = 180_000;

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

/** The failure section of the verifier's output, a line each. */
function failureLines(output: string): string[] {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the verifier colours its output with ANSI escapes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const start = plain.search(/^Failures:/m);
  const from = start === -1 ? plain : plain.slice(start);
  const end = from.search(/^There (?:were|was) \d+ pact failures?/m);
  const text = end === -1 ? from : from.slice(0, end);
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .slice(0, 30);
}

function failureEvidence(ctx: CheckContext, pact: PactFile, output: string): Evidence {
  const lines = failureLines(output);
  const headers = lines.filter((line) => /^\d+\) Verifying a pact between /.test(line));
  const failed = pact.interactions.find((i) =>
    headers.some((line) => line.endsWith(` - ${i.description}`) || line.includes(` - ${i.description} - `)),
  );
  const request = failed?.request;
  return {
    request: {
      method: (request?.method ?? "GET").toUpperCase() as HttpMethod,
      url: request?.path
        ? `${ctx.options.target}${request.path}`
        : `${ctx.options.target} (${basename(pact.file)})`,
    },
    diagnostics: [
      ...(failed ? [`first failing interaction: "${failed.description}" (${basename(pact.file)})`] : []),
      ...lines,
    ],
  };
}

type Verdict = ReturnType<typeof pass>;

/**
 * Runs the child on a config: the verdict of a failed run (undefined when every interaction held) and
 * the verifier's output.
 */
async function runChild(
  ctx: CheckContext,
  config: PactChildConfig,
  label: string,
  count: string,
  pact: PactFile | undefined,
): Promise<{ failed: Verdict | undefined; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), "assopay-pact-"));
  try {
    const configFile = join(dir, "config.json");
    writeFileSync(configFile, JSON.stringify(config));
    ctx.progress.update("pact", `verifying ${count} interactions of ${label}`);
    const outcome = await runPactChild(configFile, TIMEOUT_MS, ctx.signal);
    ctx.progress.done();
    const evidence = (): Evidence =>
      pact
        ? failureEvidence(ctx, pact, outcome.output)
        : {
            request: { method: "GET", url: `${ctx.options.target} (${label})` },
            diagnostics: failureLines(outcome.output),
          };
    const output = outcome.output;
    if (outcome.timedOut)
      return {
        failed: fail(`Pact's verifier did not finish within ${TIMEOUT_MS / 1000} s`, evidence()),
        output,
      };
    if (outcome.code !== 0) {
      const failed = /There (?:were|was) (\d+) pact failures?/.exec(outcome.output)?.[1];
      return {
        failed: fail(
          `${failed ?? "some"} of ${count} interactions of ${label} failed Pact verification`,
          evidence(),
        ),
        output,
      };
    }
    return { failed: undefined, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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
async function verifyFromBroker(ctx: CheckContext, stateUrl: string, broker: BrokerSource): Promise<Verdict> {
  const messages = await capturedMessages(ctx);
  const config: PactChildConfig = {
    pactFile: undefined,
    broker,
    provider: PROVIDER,
    providerBaseUrl: ctx.options.target,
    stateUrl,
    messages: {},
    messagesByPrefix: byPrefix(ctx, messages),
    timeoutMs: ctx.options.requestTimeoutMs,
  };
  const label = `the pacts of ${broker.url}`;
  const { failed, output } = await runChild(ctx, config, label, "the", undefined);
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

/**
 * The Pact files of `contracts/pacts/` for the date (or a broker's pacts with `--publish-results`),
 * verified against the target by Pact's own verifier, provider states (access tokens included) through
 * the target's state URL. Message interactions are answered with the target's real notifications when
 * the notification receiver caught them.
 */
export const verifyPactsCheck: SpecCheck = {
  id: "pact/verify",
  group: "pact",
  rule: "pact.interactions",
  title: "The Pact files hold against the target (Pact verifier)",
  async run(ctx) {
    if (!ctx.states) return skip("the target offers no provider states (--state-url) for the Pact verifier");
    if (ctx.contract.shapes === "document") {
      return skip("the Pact files speak the seed's shapes; --shapes document is judged by the schema checks");
    }
    const broker = ctx.options.pactBroker;
    if (broker) return verifyFromBroker(ctx, ctx.states.url, broker);
    const pacts = pactFilesAt(ctx.options.pactDir, ctx.at);
    if (pacts.length === 0) return skip(`no Pact files in ${ctx.options.pactDir}`);
    const messages = await capturedMessages(ctx);
    const hasAdmin = ctx.tokens.has("admin");
    const notes: string[] = [];
    let verified = 0;
    for (const pact of pacts) {
      const kept: PactInteraction[] = [];
      const answers: PactChildConfig["messages"] = {};
      for (const interaction of pact.interactions) {
        if (interaction.type === "Synchronous/HTTP") {
          if (usesAdmin(interaction) && !hasAdmin) continue;
          kept.push(interaction);
          continue;
        }
        const eventType = (interaction.contents?.content as { eventType?: unknown } | undefined)?.eventType;
        const captured = typeof eventType === "string" ? messages.get(eventType) : undefined;
        if (!captured) continue;
        answers[interaction.description] = captured;
        kept.push(interaction);
      }
      const dropped = pact.interactions.length - kept.length;
      if (dropped > 0)
        notes.push(
          `${dropped} interactions of ${basename(pact.file)} left out (no admin client or no notification caught)`,
        );
      if (kept.length === 0) continue;
      const dir = mkdtempSync(join(tmpdir(), "assopay-pact-file-"));
      try {
        const pactFile = join(dir, basename(pact.file));
        writeFileSync(pactFile, JSON.stringify({ ...pact.raw, interactions: kept }));
        const config: PactChildConfig = {
          pactFile,
          broker: undefined,
          provider: pact.provider,
          providerBaseUrl: ctx.options.target,
          stateUrl: ctx.states.url,
          messages: answers,
          messagesByPrefix: [],
          timeoutMs: ctx.options.requestTimeoutMs,
        };
        const { failed } = await runChild(ctx, config, basename(pact.file), String(kept.length), pact);
        if (failed) return failed;
        verified += kept.length;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    if (verified === 0) return skip(notes.join("; ") || "no interaction to verify");
    return pass(`${verified} interactions verified${notes.length > 0 ? `; ${notes.join("; ")}` : ""}`);
  },
};
