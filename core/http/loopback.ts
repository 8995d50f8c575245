import { isIP } from "node:net";

/** True for an address of this machine's loopback: 127.0.0.0/8, ::1, and IPv4-mapped 127.x. */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").toLowerCase();
  switch (isIP(bare)) {
    case 4:
      return bare.startsWith("127.");
    case 6:
      return bare === "::1" || /^::ffff:127\./.test(bare) || /^::ffff:7f[0-9a-f]{2}:/.test(bare);
    default:
      return false;
  }
}

/**
 * Why a URL would leave the machine, or undefined when it stays on loopback: its host must be a
 * loopback address (`127.0.0.1`, `[::1]`) or `localhost`, decided from the URL alone, before any
 * lookup or connection (a name other than `localhost` would need a DNS query, which itself leaves).
 *
 * @example
 * offLoopback("https://example.org/hook"); // 'example.org is not a loopback address'
 * offLoopback("http://127.0.0.1:9000/hook"); // undefined
 */
export function offLoopback(url: string): string | undefined {
  if (!URL.canParse(url)) return `"${url}" is not a URL`;
  const { hostname } = new URL(url);
  const name = hostname.replace(/\.$/, "").toLowerCase();
  if (name === "localhost" || isLoopbackAddress(name)) return undefined;
  return `${hostname} is not a loopback address`;
}
