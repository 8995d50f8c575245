import { basename } from "node:path";
import type { IsoDay } from "../../core/dates.js";
import type { Cassette, StoredRequest, StoredResponse } from "../cassette/format.js";
import { createRedactor, type Redactor } from "../redaction/redact.js";
import { ReplayIndex } from "./index.js";
import { describeRequest } from "./key.js";
import { explainMiss } from "./miss.js";
import { lookup } from "./serve.js";
import { applyCounts, goneResponse, rulesFor, type TimelineView } from "./timeline.js";

/** The redactions to apply to incoming requests: one per way the cassettes were recorded. */
export function incomingProfiles(cassettes: readonly Cassette[], salt: string | undefined): Redactor[] {
  const pii = [...new Set(cassettes.map((c) => c.header.redaction.pii))];
  return (pii.length > 0 ? pii : [false]).map((flag) => createRedactor(salt, flag, false));
}

/** Warnings a set of cassettes deserves before serving. */
export function cassetteWarnings(cassettes: readonly Cassette[], salt: string | undefined): string[] {
  const out = cassettes.flatMap((c) => c.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`));
  for (const c of cassettes) {
    if (c.header.redaction.salted && salt === undefined) {
      out.push(
        `${c.file}: recorded with a salt; without the same salt (ASSOPAY_CASSETTE_SALT) requests carrying secrets will not match`,
      );
    }
  }
  return out;
}

/** What replay answers one request with. */
export interface ReplayAnswer {
  kind: "hit" | "miss" | "gone";
  response: StoredResponse;
  /** Extra headers (where the interaction came from). */
  headers: Record<string, string>;
  /** One line for the event log. */
  message: string;
}

export interface ReplayerOptions {
  at: IsoDay | undefined;
  view: TimelineView | undefined;
  secretSalt: string | undefined;
}

/**
 * The replay logic without a server: finds the recorded response for a request, applies the timeline,
 * or explains the miss. The HTTP server and the nock entry both use it.
 */
export class Replayer {
  readonly index: ReplayIndex;
  private readonly profiles: readonly Redactor[];
  private readonly options: ReplayerOptions;

  constructor(cassettes: readonly Cassette[], options: ReplayerOptions) {
    this.index = new ReplayIndex(cassettes.flatMap((c) => c.interactions));
    this.profiles = incomingProfiles(cassettes, options.secretSalt);
    this.options = options;
  }

  answer(request: StoredRequest): ReplayAnswer {
    const { at, view } = this.options;
    const rules = view && at ? rulesFor(view, at, request.method, request.path) : undefined;
    if (rules && !rules.served) {
      return {
        kind: "gone",
        response: goneResponse(rules),
        headers: {},
        message: `${request.method} ${request.path} → 404 (switched off at ${at})`,
      };
    }
    const found = lookup(this.index, this.profiles, request, true);
    if (!found.entry) {
      const shown = describeRequest(found.redacted);
      const miss = explainMiss(
        found.canonical,
        shown,
        this.index.candidates(found.canonical),
        this.index.size,
      );
      const text = JSON.stringify(miss);
      return {
        kind: "miss",
        response: {
          status: miss.status,
          headers: { "content-type": "application/problem+json" },
          body: { text },
        },
        headers: {},
        message: miss.detail,
      };
    }
    const { interaction } = found.entry;
    const response = rules
      ? applyCounts(rules, interaction.request, interaction.response)
      : interaction.response;
    const from = `${basename(interaction.source.file)}:${interaction.source.line}`;
    return {
      kind: "hit",
      response,
      headers: { "x-assopay-replayed-from": from },
      message: `${request.method} ${request.path} → ${response.status} (${from})`,
    };
  }
}
