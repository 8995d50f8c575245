import { join } from "node:path";
import { readYamlFile } from "../core/yaml-file.js";
import { compileTemplate } from "./path-template.js";

/** An operation of the provider's document that the route catalogue leaves out, and why. */
export interface LeftOutOperation {
  method: string;
  path: string;
  reason: string;
}

/** The operations of `contracts/left-out.yaml` (in the folder `dir`). */
export function readLeftOut(dir: string): readonly LeftOutOperation[] {
  const file = join(dir, "left-out.yaml");
  return (readYamlFile(file, "bad-contract", "left-out list").data as { leftOut: LeftOutOperation[] })
    .leftOut;
}

/**
 * The left-out operation a request asks for, if any: its method, and its path matched against the
 * operation's template (parameters are any one segment).
 *
 * @example leftOutAt(contract.leftOut, "POST", "/v5/directory/forms")?.reason // "public directory search …"
 */
export function leftOutAt(
  leftOut: readonly LeftOutOperation[],
  method: string,
  pathname: string,
): LeftOutOperation | undefined {
  return leftOut.find(
    (o) =>
      o.method.toUpperCase() === method.toUpperCase() &&
      compileTemplate(o.path).match(pathname) !== undefined,
  );
}
