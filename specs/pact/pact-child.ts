/**
 * Runs Pact's own verifier in a child process, so the native core's output (written straight to the
 * process's stdout) never mixes with the runner's reports. Usage: node pact-child.js CONFIG.json
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { providerWithMetadata, Verifier } from "@pact-foundation/pact";
import { servedUrl } from "../runner/http.js";
import type { CapturedMessage, PactChildConfig } from "./child-protocol.js";

/**
 * Pact's verifier proxy parses form-encoded bodies and would forward them re-serialised as JSON (the
 * token request then fails): put the form encoding back before the request goes on.
 */
function restoreFormBody(req: IncomingMessage & { body?: unknown }): void {
  const type = String(req.headers["content-type"] ?? "");
  const body = req.body;
  if (!type.includes("application/x-www-form-urlencoded") || body === null || typeof body !== "object")
    return;
  if (Buffer.isBuffer(body)) return;
  const text = new URLSearchParams(body as Record<string, string>).toString();
  req.body = Buffer.from(text, "utf8");
  req.headers["content-length"] = String(Buffer.byteLength(text));
}

/** The captured message answering a description: by exact description, else by its longest known prefix. */
function messageFor(config: PactChildConfig, description: string): CapturedMessage | undefined {
  const exact = config.messages[description];
  if (exact) return exact;
  const matches = config.messagesByPrefix.filter((m) => description.startsWith(m.prefix));
  return matches.sort((a, b) => b.prefix.length - a.prefix.length)[0]?.message;
}

/** Where the verifier reads the pacts: a local file, or a broker that then receives the results. */
function source(config: PactChildConfig): Record<string, unknown> {
  const broker = config.broker;
  if (!broker) return { pactUrls: [config.pactFile] };
  return {
    pactBrokerUrl: broker.url,
    consumerVersionSelectors: [{ mainBranch: true }, { deployedOrReleased: true }],
    publishVerificationResult: true,
    providerVersion: broker.providerVersion,
    ...(broker.providerBranch ? { providerVersionBranch: broker.providerBranch } : {}),
  };
}

async function main(configFile: string): Promise<number> {
  const config = JSON.parse(readFileSync(configFile, "utf8")) as PactChildConfig;
  // Looked up by description when the verifier asks, so a broker's pacts need no list made in advance.
  const messageProviders = new Proxy({} as Record<string, unknown>, {
    get(_target, description) {
      const message = typeof description === "string" ? messageFor(config, description) : undefined;
      return message && providerWithMetadata(() => Promise.resolve(message.content), message.metadata);
    },
  });
  const verifier = new Verifier({
    provider: config.provider,
    providerBaseUrl: config.providerBaseUrl,
    ...source(config),
    providerStatesSetupUrl: config.stateUrl,
    messageProviders,
    logLevel: "warn",
    timeout: config.timeoutMs,
    requestFilter: (req: IncomingMessage, _res: ServerResponse, next: () => void) => {
      restoreFormBody(req as IncomingMessage & { body?: unknown });
      req.url = servedUrl(req.url ?? "/", { base: "", apiRoot: config.apiRoot });
      next();
    },
  } as ConstructorParameters<typeof Verifier>[0]);
  try {
    await verifier.verifyProvider();
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `\nPACT-CHILD-ERROR: ${message.length > 300 ? `${message.slice(0, 300)}…` : message}\n`,
    );
    return 1;
  }
}

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: pact-child CONFIG.json\n");
  process.exitCode = 2;
} else {
  process.exitCode = await main(file).catch((error: unknown) => {
    process.stderr.write(`PACT-CHILD-ERROR: ${String(error)}\n`);
    return 2;
  });
}
