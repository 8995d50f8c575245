/** What the parent hands the Pact child process (as a JSON file). */
export interface PactChildConfig {
  pactFile: string;
  provider: string;
  providerBaseUrl: string;
  stateUrl: string;
  /** Message contents by interaction description, captured from the target's real notifications. */
  messages: Record<string, { content: unknown; metadata: Record<string, string> }>;
  timeoutMs: number;
}
