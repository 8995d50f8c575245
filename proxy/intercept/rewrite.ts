import { INTERCEPTED_HEADER } from "./hosts.js";

/** Where intercepted requests go: the hosts named, and the recorder or replay server that answers them. */
export interface InterceptPlan {
  /** Lower-case host names whose requests are sent to `target`. */
  readonly hosts: ReadonlySet<string>;
  /** The recorder or replay server, `http://127.0.0.1:PORT`. */
  readonly target: URL;
}

/** True when a request to this host is to be intercepted. */
export function intercepts(plan: InterceptPlan, hostname: string | null | undefined): boolean {
  if (!hostname) return false;
  return plan.hosts.has(hostname.toLowerCase().replace(/\.$/, ""));
}

/** The origin a request meant, as the recorder receives it in {@link INTERCEPTED_HEADER}. */
export function originOf(
  protocol: string,
  hostname: string,
  port: string | number | undefined | null,
): string {
  const scheme = protocol.replace(/:$/, "");
  const standard = (scheme === "https" ? "443" : "80") === String(port ?? "");
  const suffix = port === undefined || port === null || port === "" || standard ? "" : `:${port}`;
  return `${scheme}://${hostname.toLowerCase()}${suffix}`;
}

/** Headers in either of the shapes Node and undici pass them, with the intercepted origin added. */
export function withOriginHeader<H>(headers: H, origin: string): H | Record<string, unknown> | unknown[] {
  if (headers === undefined || headers === null) return { [INTERCEPTED_HEADER]: origin };
  if (Array.isArray(headers)) {
    // A flat [name, value, name, value…] list, or a list of pairs.
    return Array.isArray(headers[0])
      ? [...headers, [INTERCEPTED_HEADER, origin]]
      : [...headers, INTERCEPTED_HEADER, origin];
  }
  if (typeof headers === "object" && Symbol.iterator in headers) {
    return [...(headers as Iterable<[string, string]>), [INTERCEPTED_HEADER, origin]];
  }
  return { ...(headers as Record<string, unknown>), [INTERCEPTED_HEADER]: origin };
}
