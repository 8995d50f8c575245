import { AssopayError } from "../../core/errors.js";

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

/**
 * The header an intercepted request carries to the recorder or replay server: the origin the
 * application meant (`https://api.helloasso.com`). The servers read it and drop it, so it reaches
 * neither the upstream nor the cassette.
 */
export const INTERCEPTED_HEADER = "x-assopay-intercepted-origin";

/** The environment variable naming the hosts to intercept, comma-separated. */
export const HOSTS_VARIABLE = "ASSOPAY_INTERCEPT_HOSTS";

/** The environment variable giving the recorder or replay server the intercepted requests go to. */
export const TARGET_VARIABLE = "ASSOPAY_INTERCEPT_TARGET";

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * Checks host names to intercept (`api.helloasso.com`): lower-cased, no scheme, port or path, no
 * wildcard. A mistake is an `AssopayError` ('usage').
 */
export function checkHosts(hosts: Iterable<string>, what: string): ReadonlySet<string> {
  const checked = new Set<string>();
  for (const raw of hosts) {
    const host = raw.trim().toLowerCase().replace(/\.$/, "");
    if (host === "") continue;
    if (!HOST_NAME.test(host)) {
      throw new AssopayError("usage", `${what}: "${raw}" is not a host name`, {
        hint: "name hosts only, without scheme, port or path, e.g. api.helloasso.com",
      });
    }
    checked.add(host);
  }
  return checked;
}

/** The host names of a comma-separated list (`ASSOPAY_INTERCEPT_HOSTS`). */
export function splitHosts(list: string | undefined): string[] {
  return (list ?? "").split(",").filter((host) => host.trim() !== "");
}

/** The host of a `Host` header or an authority (`name:port`, `[::1]:443`), lower-case, without port. */
export function hostOf(authority: string): string {
  const trimmed = authority.trim().toLowerCase();
  const bracket = trimmed.startsWith("[") ? trimmed.indexOf("]") : -1;
  if (bracket > 0) return trimmed.slice(1, bracket);
  const colon = trimmed.lastIndexOf(":");
  return (colon === -1 ? trimmed : trimmed.slice(0, colon)).replace(/\.$/, "");
}
