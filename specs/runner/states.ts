import { SERVICE_DATE_STATE } from "../../contracts/pact/generate.js";
import { type HttpClient, isSuccess, parseJson } from "./http.js";

/** What a provider-state setup answered: the values it returns (ids, URLs), or why it did not work. */
export type StateAnswer =
  | { ok: true; values: Readonly<Record<string, unknown>> }
  | { ok: false; reason: string };

/** The target's provider-state endpoint (Pact convention: `POST {state, params, action}`). */
export interface StateClient {
  readonly url: string;
  setup(state: string, params?: Readonly<Record<string, unknown>>): Promise<StateAnswer>;
  teardown(state: string, params?: Readonly<Record<string, unknown>>): Promise<void>;
}

export function createStateClient(http: HttpClient, url: string): StateClient {
  const post = (state: string, params: Readonly<Record<string, unknown>>, action: "setup" | "teardown") =>
    http.send({
      method: "POST",
      url,
      body: { contentType: "application/json", text: JSON.stringify({ state, params, action }) },
    });
  return {
    url,
    async setup(state, params = {}) {
      const exchange = await post(state, params, "setup");
      if (!isSuccess(exchange.status)) {
        return { ok: false, reason: `the target's state URL refused "${state}" (${exchange.status})` };
      }
      const parsed = parseJson(exchange);
      const values =
        parsed.ok && parsed.value !== null && typeof parsed.value === "object" && !Array.isArray(parsed.value)
          ? (parsed.value as Record<string, unknown>)
          : {};
      return { ok: true, values: Object.freeze({ ...values }) };
    },
    async teardown(state, params = {}) {
      await post(state, params, "teardown");
    },
  };
}

/** A string value of a state answer (Pact's verifier reads the same map for its generators). */
export function stateString(values: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = values[name];
  if (typeof value === "string" && value !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * A state client that keeps the target at `day`: the day is set before each set-up, and again after each
 * teardown (a Pact-convention teardown puts everything back, the clock too).
 */
export function withServiceDay(client: StateClient, day: string): StateClient {
  const keep = () => client.setup(SERVICE_DATE_STATE, { day });
  return {
    url: client.url,
    async setup(state, params) {
      await keep();
      return client.setup(state, params);
    },
    async teardown(state, params) {
      await client.teardown(state, params);
      await keep();
    },
  };
}
