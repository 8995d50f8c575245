/** A client of the service (or the sandbox): its OAuth2 client credentials. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The access token `POST {base}/oauth2/token` gives a client (`grant_type=client_credentials`), as a
 * test's own client fetches it.
 *
 * @example const bearer = await clientToken(sandbox.url, sandbox.credentials.reader);
 */
export async function clientToken(base: string, client: ClientCredentials): Promise<string> {
  const response = await fetch(`${base}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.clientId,
      client_secret: client.clientSecret,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
