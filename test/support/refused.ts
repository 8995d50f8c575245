/**
 * An address where nothing listens, for every test that needs its connection refused: port 2 of the
 * loopback. A port below 1024 is never handed out for port 0, and no test binds one, so no other test's
 * server can take it meanwhile, as it could a port that a test had opened and closed a moment before.
 * Port 2 is not among the fetch standard's "bad ports" either (9 is), so `fetch` tries it too.
 */
export const REFUSING_URL = "http://127.0.0.1:2";
