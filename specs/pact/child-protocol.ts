/** What the parent hands the Pact child process (as a JSON file). */
export interface PactChildConfig {
  pactFile: string;
  provider: string;
  providerBaseUrl: string;
  stateUrl: string;
  /** `Bearer …` values replacing the pact's `Bearer assopay:reader` / `Bearer assopay:admin` placeholders. */
  authorization: { reader: string; admin: string | undefined };
  /** Message contents by interaction description, captured from the target's real notifications. */
  messages: Record<string, { content: unknown; metadata: Record<string, string> }>;
  timeoutMs: number;
}

export const PLACEHOLDERS = Object.freeze({ reader: "Bearer assopay:reader", admin: "Bearer assopay:admin" });
