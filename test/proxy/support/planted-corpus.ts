import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { send } from "./http.js";
import { Planted } from "./planted.js";
import {
  issue24FailedPath,
  issue24LearnedToken,
  issue24Requests,
  issue24Responses,
} from "./planted-issue24.js";

/**
 * The planted-secret corpus: 60+ fresh secrets in every place an exchange holds text, as the answers of
 * an upstream (`responses`) and the requests of a client's session (`session`, sent to a base URL that
 * reaches that upstream: the recorder, or anything else that captures the exchanges). Each call plants
 * fresh values; `p.all` lists them with where they were planted.
 */
export function plantedCorpus() {
  const JSON_TYPE = "application/json";
  const p = new Planted();
  const learned = issue24LearnedToken(p);

  /** What the upstream answers, by path: each response plants secrets of its own. */
  function responses(): Record<string, (req: IncomingMessage, body: Buffer, res: ServerResponse) => void> {
    const location = `/callback?state=ok&access_token=${p.text("Location query")}#id_token=${p.jwt("Location fragment")}&token_type=bearer`;
    const link = `<http://127.0.0.1/items?page=2&token=${p.text("Link query")}>; rel="next"`;
    const headers = {
      "x-access-token": p.text("X-Access-Token response header"),
      "x-session-secret": p.text("*-secret response header"),
      "x-goog-api-key": p.text("*-key response header"),
      "set-cookie": `sid=${p.text("Set-Cookie")}; Path=/; HttpOnly`,
    };
    const json = JSON.stringify({
      refresh_token: p.text("JSON refresh_token"),
      pinSecret: p.number("JSON number under a secret key"),
      token: p.text("generic token field"),
      secret: p.text("generic secret field"),
      nested: { credentials: { user: "someone", pass: p.text("object under a secret key") } },
      tokens: [p.text("array under a secret key, 1"), p.text("array under a secret key, 2")],
      note: `your session is ${p.jwt("JWT inside a string")}`,
      comment: `call with Bearer ${p.text("bearer in text")}`,
      card: p.card("card number in a JSON string", " "),
      iban: p.iban("IBAN in a JSON string"),
    });
    const big = `{"pad":"${"x".repeat(600 * 1024)}","\\u0070assword":"${p.text("escaped key, large body")}","apiKey":${p.number("number, large body")},"auth":{"client_secret":"${p.text("nested, large body")}"},"note":"${p.jwt("JWT, large body")}"}`;
    const pretty = JSON.stringify(
      { "\u0061ccess_token": p.text("escaped key, pretty JSON"), password: p.number("number, pretty JSON") },
      null,
      2,
    ).replace('"access_token"', '"\\u0061ccess_token"');
    const textJson = JSON.stringify({ id: 1, token: p.text("JSON sent as text/plain, response") });
    const html = `<p>card ${p.card("card in HTML", "-")} iban ${p.iban("IBAN in HTML")} jwt ${p.jwt("JWT in HTML")}</p>`;
    // Secrets their structure names: pair objects (compact JSON, the recorder's fast path), a table's
    // column, a page's hidden input and meta tag.
    const pairs = JSON.stringify({
      env: [{ name: "DB_PASSWORD", value: p.text("a pair object's value") }],
      tags: [{ Key: "api_key", Value: p.text("an AWS-style pair's value") }],
      customFields: [
        { id: 3, name: "Access token", type: "TextInput", answer: p.text("a custom field's answer") },
      ],
    });
    // A large body (kept as its text) that nothing but a pair object's name marks.
    const bigPairs = `{"pad":"${"y".repeat(600 * 1024)}","env":[{"name":"Access token","value":"${p.text("a pair object's value, large body")}"}]}`;
    // The same table and page above the size kept as its bytes: only their structure names the secret.
    const bigTable = `email;API Key\n${"a@b.example;plain\n".repeat(40_000)}c@d.example;${p.text("a CSV column, large table")}\n`;
    const bigPage = `<html>${"<p>plain text</p>".repeat(40_000)}<input type="hidden" name="csrf_token" value="${p.text("a hidden input, large page")}"></html>`;
    const table = `email;API Key\r\na@b.example;${p.text("a CSV column headed API Key")}\r\n`;
    const page = `<form><input type="hidden" name="csrf_token" value="${p.text("a hidden csrf_token input")}"></form><meta name="csrf-token" content="${p.text("a csrf-token meta tag")}">`;
    return {
      "/redirect": (_, __, res) =>
        res
          .writeHead(302, {
            location,
            "content-location": `/done#refresh_token=${p.text("Content-Location fragment")}`,
            "content-length": "0",
          })
          .end(),
      "/links": (_, __, res) => res.writeHead(200, { link, ...headers, "content-type": JSON_TYPE }).end(json),
      "/big": (_, __, res) => res.writeHead(200, { "content-type": JSON_TYPE }).end(big),
      "/pretty": (_, __, res) => res.writeHead(200, { "content-type": JSON_TYPE }).end(pretty),
      "/text-json": (_, __, res) => res.writeHead(200, { "content-type": "text/plain" }).end(textJson),
      "/html": (_, __, res) => res.writeHead(200, { "content-type": "text/html" }).end(html),
      "/pairs": (_, __, res) => res.writeHead(200, { "content-type": JSON_TYPE }).end(pairs),
      "/big-pairs": (_, __, res) => res.writeHead(200, { "content-type": JSON_TYPE }).end(bigPairs),
      "/table": (_, __, res) => res.writeHead(200, { "content-type": "text/csv" }).end(table),
      "/page": (_, __, res) => res.writeHead(200, { "content-type": "text/html" }).end(page),
      "/big-table": (_, __, res) => res.writeHead(200, { "content-type": "text/csv" }).end(bigTable),
      "/big-page": (_, __, res) => res.writeHead(200, { "content-type": "text/html" }).end(bigPage),
      "/fail": (req) => req.socket.destroy(),
      "/echo": (req, body, res) =>
        res.writeHead(200, { "content-type": req.headers["content-type"] ?? "text/plain" }).end(body),
      ...issue24Responses(p, learned),
    };
  }

  function multipart(boundary: string): string {
    const part = (name: string, value: string, type?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n${type ? `Content-Type: ${type}\r\n` : ""}\r\n${value}\r\n`;
    return (
      part("password", p.text("multipart password field")) +
      part("api_key", p.text("multipart api_key field")) +
      part("meta", JSON.stringify({ secret: p.text("multipart JSON part") }), JSON_TYPE) +
      part("note", `token: ${p.jwt("JWT in a multipart text part")}`) +
      `--${boundary}--\r\n`
    );
  }

  /** The client's side of the session: every request plants secrets (the upstream echoes bodies back). */
  async function session(base: string): Promise<void> {
    const requests: { path: string; headers?: Record<string, string>; body?: string }[] = [
      {
        path: "/echo",
        headers: { "content-type": JSON_TYPE },
        body: `{"\\u0061ccess_token":"${p.text("escaped key")}","password":${p.number("numeric password")},"isSecret":true,"secrets":{"a":"${p.text("object leaf")}","b":[${p.number("number in an array leaf")}]}}`,
      },
      {
        path: "/echo",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `grant_type=password&username=a&password=${p.text("form password")}&client_secret=${p.text("form client_secret")}`,
      },
      {
        path: "/echo",
        headers: { "content-type": "multipart/form-data; boundary=XyZ42" },
        body: multipart("XyZ42"),
      },
      {
        path: "/echo",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify({
          token: p.text("JSON sent as text/plain"),
          refresh_token: p.text("text/plain JSON 2"),
        }),
      },
      {
        path: `/echo?access_token=${p.text("query access_token")}&token=${p.text("query token")}&api_key=${p.text("query api_key")}&state=${p.jwt("JWT in an ordinary query value")}`,
      },
      {
        path: "/echo",
        headers: {
          "x-access-token": p.text("X-Access-Token"),
          "private-token": p.text("Private-Token"),
          "x-api-key": p.text("X-Api-Key"),
          "x-custom-secret": p.text("X-Custom-Secret"),
          "ocp-apim-subscription-key": p.text("*-key header"),
          authorization: `Bearer ${p.text("Authorization bearer")}`,
          "proxy-authorization": `Basic ${Buffer.from(`u:${p.text("Proxy-Authorization basic password")}`).toString("base64")}`,
          cookie: `session=${p.text("Cookie")}; theme=dark`,
          "x-request-note": `card ${p.card("card in an ordinary header")}`,
        },
      },
      {
        path: "/echo",
        headers: {
          "content-type": JSON_TYPE,
          referer: `http://127.0.0.1/app?session_token=${p.text("Referer query")}`,
          "x-auth-token": p.text("X-Auth-Token"),
        },
        body: JSON.stringify({
          user: { newPassword: p.text("nested newPassword") },
          ref: p.iban("IBAN in JSON"),
        }),
      },
      {
        path: "/echo",
        headers: { "content-type": "text/plain" },
        body: `a=1&token=${p.text("form sent as text/plain")}&ref=${p.card("card in a form value", "-")}`,
      },
      { path: "/redirect" },
      { path: "/links" },
      { path: "/big" },
      { path: "/pretty" },
      { path: "/text-json" },
      { path: "/html" },
      { path: "/pairs" },
      { path: "/big-pairs" },
      { path: "/table" },
      { path: "/page" },
      { path: "/big-table" },
      { path: "/big-page" },
      ...issue24Requests(p),
    ];
    for (const r of requests) {
      await send(`${base}${r.path}`, { method: r.body ? "POST" : "GET", headers: r.headers, body: r.body });
    }
    // A failed exchange: its URL is printed (the upstream drops the connection).
    await send(
      `${base}/fail?access_token=${p.text("query of a failed exchange")}&password=${p.text("query of a failed exchange, 2")}`,
    ).catch(() => undefined);
    await send(`${base}${issue24FailedPath(p)}`).catch(() => undefined);
    // The token the upstream issued, as a path segment of a failed exchange sent as soon as the response
    // that issued it has ended: the recorder knew it by then (no wait, no matter how busy the machine).
    await send(`${base}/issue`);
    await send(`${base}/fail/${learned}`).catch(() => undefined);
  }

  return { p, learned, responses, session };
}

/** An upstream on 127.0.0.1 that answers by `routes` (by path, else by its first segment). */
export async function servePlanted(
  routes: Record<string, (req: IncomingMessage, body: Buffer, res: ServerResponse) => void>,
): Promise<Server> {
  const upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const route = routes[path] ?? routes[`/${path.split("/")[1] ?? ""}`];
    req.on("end", () => route?.(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  return upstream;
}

/** Forms a secret may take in what the recorder writes or prints. */
export function forms(value: string): string[] {
  return [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1), value.replace(/[ -]/g, "")];
}
