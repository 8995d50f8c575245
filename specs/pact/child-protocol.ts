/** A message the target really sent, answering a pact's message interaction. */
export interface CapturedMessage {
  content: unknown;
  metadata: Record<string, string>;
}

/** Where the pacts come from and where the results go when they are published to a Pact Broker. */
export interface BrokerSource {
  url: string;
  providerVersion: string;
  providerBranch: string | undefined;
}

/** What the parent hands the Pact child process (as a JSON file). */
export interface PactChildConfig {
  /** A local pact file; absent when the pacts come from a broker. */
  pactFile: string | undefined;
  broker: BrokerSource | undefined;
  provider: string;
  providerBaseUrl: string;
  /** The target's API root (`--api-root`): the pacts' `/v5` paths are sent under it. */
  apiRoot: string;
  stateUrl: string;
  /** Message contents by interaction description, captured from the target's real notifications. */
  messages: Record<string, CapturedMessage>;
  /** For pacts not known in advance (a broker's): captured messages by the description's prefix. */
  messagesByPrefix: { prefix: string; message: CapturedMessage }[];
  timeoutMs: number;
}
