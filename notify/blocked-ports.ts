/**
 * The ports Node's `fetch` refuses to connect to: the fetch standard's "bad ports" (services that a
 * browser must never be tricked into talking HTTP to: FTP, SSH, SMTP, X11 on 6000, IRC …). A request to
 * one fails with "bad port" before any connection, so a receiver listening there would be judged on
 * answers it never got. The list is the one in the standard's "port blocking" section; the test checks
 * each entry against the running Node's fetch.
 */
export const FETCH_BLOCKED_PORTS = [
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
] as const;

/** The port of an http(s) URL when fetch refuses it, else undefined. */
export function fetchBlockedPort(url: URL): number | undefined {
  if (url.port === "") return undefined; // 80 and 443 are never blocked
  const port = Number(url.port);
  return (FETCH_BLOCKED_PORTS as readonly number[]).includes(port) ? port : undefined;
}
