import { readFileSync } from "node:fs";
import { join } from "node:path";
import { contractsDir } from "../core/paths.js";
import { documentJudge } from "./document-schemas.js";
import { serverPrefix } from "./drift/surface.js";
import type { Diagnostic, Route } from "./types.js";

type Judge = ReturnType<typeof documentJudge>;
let judge: Judge | undefined;

/** The provider's published document (contracts/reference/openapi-v5.json), read once, formats checked. */
function referenceJudge(): Judge {
  if (!judge) {
    const document = JSON.parse(readFileSync(join(contractsDir(), "reference", "openapi-v5.json"), "utf8"));
    judge = documentJudge(document, serverPrefix(document), { formats: true });
  }
  return judge;
}

/** `response.data[0].payer` as the JSON pointer `/data/0/payer`. */
const pointerOf = (path: string) =>
  path
    .replace(/^response/, "")
    .replace(/\[(\d+)\]/g, ".$1")
    .replace(/\./g, "/");

/** What a finding says when the provider's own document allows the value the contract refuses. */
export const DOCUMENT_ALLOWS =
  "the provider's own document (openapi-v5.json) allows this here, so a mock built from it may answer it: a divergence of the document from the contract";

/**
 * The diagnostics of a route's answer, each one whose value the provider's published document itself
 * allows at that place (a field it declares nullable, a date without a fraction) saying so. The
 * document's own schema judges the same body (contracts/document-schemas.ts, as `--shapes document`
 * and drift read it); a place where it finds nothing wrong is the document's divergence.
 *
 * @example
 * documentNoted(route, { data: [{ payer: { firstName: null } }] }, diagnostics)[0].message
 * // "response.data[0].payer.firstName must be string, got null (the provider's own document …)"
 */
export function documentNoted(route: Route, body: unknown, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  if (diagnostics.length === 0) return [...diagnostics];
  const judged = referenceJudge()(route, body);
  if (judged.kind !== "judged") return [...diagnostics];
  const refused = judged.errors.map((error) => error.instancePath);
  return diagnostics.map((diagnostic) => {
    const pointer = pointerOf(diagnostic.path);
    const inDocument = refused.some((at) => at === pointer || at.startsWith(`${pointer}/`));
    return inDocument ? diagnostic : { ...diagnostic, message: `${diagnostic.message} (${DOCUMENT_ALLOWS})` };
  });
}
