import { messageDescription } from "../contracts/pact/message-interactions.js";
import type { SandboxCore } from "./core.js";
import { type Exchange, readJson, sendErrors, sendText } from "./http.js";
import { StateError, setUpState } from "./states.js";

/** Where Pact's verifiers ask a message provider for a message (the message-provider convention). */
export const PACT_MESSAGE_PATH = "/";

/** The notification type whose pact description this is (the era suffix `(as of …)` allowed). */
function typeOf(core: SandboxCore, description: string) {
  return core.contract.notificationTypes.find((t) => {
    const base = messageDescription(t);
    return description === base || description.startsWith(`${base} (`);
  });
}

const latest = (core: SandboxCore, eventType: string) =>
  core.notifier.emitted().findLast((e) => e.eventType === eventType);

/**
 * `POST /` with `{"description", "providerStates"}`: the last notification of the interaction's type,
 * its exact bytes as the body and its `x-ha-signature` in the metadata (the `Pact-Message-Metadata`
 * header, base64 JSON, and the plain header). When no such notification was emitted yet (the verifier
 * was given no state URL), the interaction's provider states are set up first.
 */
export async function answerPactMessage(core: SandboxCore, ex: Exchange): Promise<void> {
  const parsed = await readJson(ex);
  if (!parsed.ok) return;
  const body = (parsed.value ?? {}) as { description?: unknown; providerStates?: unknown };
  const description = typeof body.description === "string" ? body.description : "";
  const type = typeOf(core, description);
  if (!type) {
    sendErrors(ex, 404, "NotFound", `No message interaction described as "${description}".`);
    return;
  }
  if (!latest(core, type.eventType)) {
    const states = Array.isArray(body.providerStates) ? (body.providerStates as { name?: unknown }[]) : [];
    try {
      for (const state of states) {
        const params = (state as { params?: Record<string, unknown> }).params ?? {};
        if (typeof state.name === "string") setUpState(core, state.name, params);
      }
    } catch (error) {
      sendErrors(ex, error instanceof StateError ? 400 : 500, "BadProviderState", (error as Error).message);
      return;
    }
  }
  const emission = latest(core, type.eventType);
  if (!emission) {
    sendErrors(
      ex,
      404,
      "NotFound",
      `No ${type.eventType} notification was emitted; set up "${type.trigger}".`,
    );
    return;
  }
  const metadata = { contentType: "application/json", "x-ha-signature": emission.signature };
  sendText(ex, 200, emission.body, {
    "content-type": "application/json",
    "x-ha-signature": emission.signature,
    "pact-message-metadata": Buffer.from(JSON.stringify(metadata)).toString("base64"),
  });
}
