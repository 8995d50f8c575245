import { STATUS_CODES } from "node:http";
import { packageVersion } from "../../core/paths.js";
import { bodyBytes, isFormType, utf8Text } from "../cassette/body.js";
import type { Cassette, StoredBody, StoredHeaders, StoredQuery } from "../cassette/format.js";
import { firstHeader, queryParams } from "../http/message.js";
import type { Har, HarContent, HarEntry, HarNameValue } from "./format.js";

function pairs(values: StoredHeaders | StoredQuery | undefined): HarNameValue[] {
  return Object.entries(values ?? {}).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => ({ name, value: v })),
  );
}

/** A stored body as HAR content: its bytes with the coding undone, as text when they are UTF-8, else base64. */
function content(body: StoredBody | undefined, mimeType: string): HarContent {
  const bytes = bodyBytes(body);
  const text = body && "base64" in body ? undefined : utf8Text(bytes);
  return {
    size: bytes.length,
    mimeType,
    ...(bytes.length === 0
      ? {}
      : text === undefined
        ? { text: bytes.toString("base64"), encoding: "base64" }
        : { text }),
  };
}

/**
 * A cassette as a HAR 1.2 log, for HAR viewers and the tools that read HAR: one entry per interaction,
 * in the cassette's order, as the cassette holds it (secrets stay the `<secret:…>` placeholders, bodies
 * with their coding undone as HAR has them, the coding still named in the headers). URLs are the
 * cassette's upstream plus the path and query recorded. Each entry keeps its interaction's id
 * (`_assopayId`) and, for a notification, what the recorder learnt of it (`_assopayNotification`), so
 * that `importHar` gives the same interactions back.
 */
export function cassetteToHar(cassette: Cassette): Har {
  const origin = cassette.header.upstream.replace(/\/+$/, "");
  const entries = cassette.interactions.map((interaction): HarEntry => {
    const { request, response } = interaction;
    const query = queryParams(request.query).toString();
    const requestType = firstHeader(request.headers, "content-type") ?? "";
    const requestBody = content(request.body, requestType);
    const responseType = firstHeader(response.headers, "content-type") ?? "";
    const params = isFormType(requestType) && requestBody.encoding === undefined && requestBody.text;
    return {
      startedDateTime: interaction.recordedAt,
      time: 0,
      request: {
        method: request.method,
        url: `${origin}${request.path}${query === "" ? "" : `?${query}`}`,
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: pairs(request.headers),
        queryString: pairs(request.query),
        ...(requestBody.text === undefined
          ? {}
          : {
              postData: {
                mimeType: requestType,
                text: requestBody.text,
                ...(requestBody.encoding ? { encoding: requestBody.encoding } : {}),
                ...(params
                  ? { params: [...new URLSearchParams(params)].map(([name, value]) => ({ name, value })) }
                  : {}),
              },
            }),
        headersSize: -1,
        bodySize: requestBody.size,
      },
      response: {
        status: response.status,
        statusText: STATUS_CODES[response.status] ?? "",
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: pairs(response.headers),
        content: content(response.body, responseType),
        redirectURL: firstHeader(response.headers, "location") ?? "",
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
      _assopayId: interaction.id,
      ...(interaction.notification ? { _assopayNotification: interaction.notification } : {}),
    };
  });
  return {
    log: {
      version: "1.2",
      creator: { name: "assopay-contract", version: packageVersion() },
      entries,
      comment: `exported from ${cassette.file} (${cassette.header.format}, recorded from ${cassette.header.upstream}); secrets are its <secret:…> placeholders`,
    },
  };
}
