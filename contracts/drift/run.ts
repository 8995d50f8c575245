import { statSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import type { IsoDay } from "../../core/dates.js";
import { AssopayError } from "../../core/errors.js";
import type { Finding } from "../../core/finding.js";
import { readYamlFile } from "../../core/yaml-file.js";
import { exportOpenApi } from "../openapi/export.js";
import type { Contract } from "../types.js";
import { compareSurfaces, type DriftKind } from "./compare.js";
import { explanationOf, loadKnownDrift } from "./known.js";
import { type Surface, surfaceOf } from "./surface.js";

/** How a difference weighs for clients: a finding's group (a breaking one fails). */
export type DriftClass = "breaking" | "additive" | "known";

const FIX =
  "align the contract with the document, or record the difference with its reason in contracts/divergences.yaml (drift:)";

/** What `assopay drift` compared and found: one finding per difference. */
export interface DriftResult {
  /** `contract`: the contract against a document; `since`: an older document against a newer one. */
  mode: "contract" | "since";
  before: string;
  after: string;
  findings: readonly Finding[];
}

/** What a drift run needs, resolved at the boundary. */
export interface DriftOptions {
  /**
   * The provider's OpenAPI document (JSON or YAML, 3.0 or 3.1).
   * @example { openapi: "contracts/reference/openapi-v5.json" }
   */
  openapi: string;
  /**
   * An older document: compare it with `openapi` instead of comparing the contract.
   * @example { since: "contracts/reference/openapi-v5.2025-12-01.json" }
   */
  since?: string;
  /** The date the contract's timeline is read at (which parameters it still promises). */
  at: IsoDay;
  /** The largest document read, in bytes (default DEFAULT_MAX_DOCUMENT_BYTES). */
  maxDocumentBytes?: number;
}

/**
 * The largest OpenAPI document drift reads by default: 16 MiB, some 70 times the provider's (230 kB).
 * Parsing keeps about 20 bytes of heap per byte of document (with line numbers for the errors), so a
 * 300 MB document used to end in V8's out-of-memory abort; a larger one is refused before it is read.
 */
export const DEFAULT_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

/**
 * The largest document this process can parse: its heap's limit over 32 (parsing keeps about 20 bytes of
 * heap per byte, and the text and the contract are held too). `--max-document-bytes` accepts no more, so
 * whatever size drift accepts, it can hold; Node's `--max-old-space-size` raises it.
 */
export function largestParsableDocument(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 32);
}

/** The hint for a document over `maxBytes`: the flag when this heap can parse it, else a larger heap. */
function raiseHint(size: number): string {
  const largest = largestParsableDocument();
  if (size <= largest) return `raise the bound with --max-document-bytes ${size}`;
  const megabytes = Math.ceil((size * 32) / 1024 / 1024);
  return `it is more than this process can parse (${largest} bytes): run with NODE_OPTIONS=--max-old-space-size=${megabytes} and --max-document-bytes ${size}`;
}

/** Refuses a document over the bound before reading it: a `bad-input` error naming its size and the flag. */
function checkDocumentSize(file: string, maxBytes: number): void {
  let size: number;
  try {
    const stats = statSync(file);
    if (!stats.isFile()) return; // a folder or a missing file: the reader says so with its own hint
    size = stats.size;
  } catch {
    return;
  }
  if (size <= maxBytes) return;
  throw new AssopayError(
    "bad-input",
    `${file} is ${size} bytes, more than the ${maxBytes} bytes drift reads (an OpenAPI document of an API this size is far smaller)`,
    {
      location: { file },
      hint: `check that this is the provider's OpenAPI document; if it is, ${raiseHint(size)}`,
    },
  );
}

/** The kinds of difference that can break a client relying on the `before` side; the others are additive. */
const BREAKING: ReadonlySet<DriftKind> = new Set<DriftKind>([
  "operation-removed",
  "parameter-removed",
  "parameter-now-required",
  "field-removed",
  "field-now-optional",
  "field-now-nullable",
  "type-changed",
  "enum-widened",
  "enum-removed",
]);

/** Reads an OpenAPI document; anything else is a `bad-input` error with its file and line. */
export function readOpenApi(file: string, maxBytes = DEFAULT_MAX_DOCUMENT_BYTES): unknown {
  checkDocumentSize(file, maxBytes);
  const yaml = readYamlFile(file, "bad-input", "OpenAPI document");
  const doc = yaml.data as { openapi?: unknown; paths?: unknown } | null;
  const version = doc?.openapi;
  if (typeof version !== "string" || !/^3\.[01]\./.test(version)) {
    throw new AssopayError(
      "bad-input",
      `${file} is not an OpenAPI 3.0 or 3.1 document (no "openapi: 3.x.y")`,
      {
        location: { file, line: yaml.lineOf(["openapi"]) ?? 1 },
        hint: "give the provider's published OpenAPI document, or the output of 'assopay openapi'",
      },
    );
  }
  if (doc?.paths === null || typeof doc?.paths !== "object" || Array.isArray(doc.paths)) {
    throw new AssopayError("bad-input", `${file} has no "paths" object`, {
      location: { file, line: yaml.lineOf(["paths"]) ?? 1 },
      hint: "an OpenAPI document lists its operations under paths",
    });
  }
  return doc;
}

/**
 * Compares the contract (exported as the OpenAPI document `assopay openapi` writes at `at`) with a
 * provider's document, or with `since`, an older document with a newer one, and classifies every
 * difference: breaking for clients, additive, or known (contracts/divergences.yaml `drift:`, the
 * timeline it cites, contracts/left-out.yaml). Each difference is a `Finding`: its id the kind and the
 * operation, its rule `drift.<kind>`, its group the class, its reason what each side says, its evidence
 * where it lies and what explains it.
 *
 * @example
 * const result = runDrift(loadContract(), { openapi: "openapi-v5.json", at: "2026-01-15" as IsoDay });
 * result.findings.filter((f) => f.group === "breaking").length;
 */
export function runDrift(contract: Contract, options: DriftOptions): DriftResult {
  const maxBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const after = surfaceOf(readOpenApi(options.openapi, maxBytes));
  const before: Surface = options.since
    ? surfaceOf(readOpenApi(options.since, maxBytes))
    : surfaceOf(exportOpenApi(contract, { at: options.at }));
  const { known, leftOut } = loadKnownDrift(contract.timeline);
  const findings = compareSurfaces(before, after).map((difference): Finding => {
    const { kind, detail, ...where } = difference;
    const explainedBy = explanationOf(difference, known, leftOut);
    const group: DriftClass = explainedBy ? "known" : BREAKING.has(kind) ? "breaking" : "additive";
    return {
      id: `${kind} ${where.operation}`,
      rule: `drift.${kind}`,
      group,
      verdict: group === "breaking" ? "fail" : "pass",
      reason: detail,
      evidence: { difference: explainedBy ? { ...where, explainedBy } : where },
      ...(group === "breaking" ? { fix: FIX } : {}),
    };
  });
  return {
    mode: options.since ? "since" : "contract",
    before: options.since ?? "the contract",
    after: options.openapi,
    findings,
  };
}
