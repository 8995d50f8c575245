/**
 * A client written from the provider's published OpenAPI document alone (openapi-v5.json): its field
 * names (ItemDetail, PaymentDetail, InitCheckoutBody …), its paths under the server's `/v5`, its
 * `ResultsWithPaginationModel` crawled by `continuationToken` until `data` is empty. It knows nothing of
 * this project's schemas, so it fails where the sandbox stops speaking like the live service.
 */

/** `Statistics.ItemDetail`, the fields a client reads. */
export interface DocumentItem {
  id: number;
  amount: number | { total: number };
  name?: string;
  order?: { id: number; date: string; formSlug: string; formType: string; organizationName: string };
  user?: { firstName: string; lastName: string };
  payments?: { id: number; amount: number; state: string; refundOperations?: unknown[] }[];
  customFields?: { name: string; type: string; answer: string }[];
}

/** `Statistics.PaymentDetail`. */
export interface DocumentPayment {
  id: number;
  amount: number;
  state: string;
  order?: { id: number };
  refundOperations?: unknown[];
}

/** `Carts.InitCheckoutBody`. */
export interface InitCheckoutBody {
  totalAmount: number;
  initialAmount: number;
  itemName: string;
  backUrl: string;
  errorUrl: string;
  returnUrl: string;
  containsDonation: boolean;
  terms?: { amount: number; date: string }[];
  payer?: { firstName?: string; lastName?: string; email?: string; country?: string };
  metadata?: unknown;
}

export interface DocumentClient {
  /** `GET /organizations/{organizationSlug}/forms/{formType}/{formSlug}/items`, every page. */
  formItems(organizationSlug: string, formType: string, formSlug: string): Promise<DocumentItem[]>;
  /** `GET /payments/{paymentId}`. */
  payment(paymentId: number): Promise<DocumentPayment>;
  /** `POST /organizations/{organizationSlug}/checkout-intents` → `InitCheckoutResponse`. */
  initCheckout(
    organizationSlug: string,
    body: InitCheckoutBody,
  ): Promise<{ id: number; redirectUrl: string }>;
  /** `GET /organizations/{organizationSlug}/checkout-intents/{checkoutIntentId}`. */
  checkoutIntent(organizationSlug: string, id: number): Promise<{ id: number; order?: { id: number } }>;
  /** `PUT /partners/me/api-notifications` → `ApiUrlNotificationModel`. */
  notificationUrl(url: string): Promise<{ url: string; signatureKey?: string }>;
}

/** A client of `{origin}/v5`, authenticated with client credentials at `{origin}/oauth2/token`. */
export async function documentClient(
  origin: string,
  clientId: string,
  clientSecret: string,
): Promise<DocumentClient> {
  const token = await fetch(`${origin}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }),
  });
  if (!token.ok) throw new Error(`token: ${token.status}`);
  const { access_token } = (await token.json()) as { access_token: string };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${origin}/v5${path}`, {
      method,
      headers: {
        authorization: `Bearer ${access_token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  return {
    async formItems(organizationSlug, formType, formSlug) {
      const items: DocumentItem[] = [];
      let continuationToken: string | undefined;
      for (;;) {
        const query = new URLSearchParams({ pageSize: "50" });
        if (continuationToken) query.set("continuationToken", continuationToken);
        const page = await call<{ data: DocumentItem[]; pagination: { continuationToken?: string } }>(
          "GET",
          `/organizations/${organizationSlug}/forms/${formType}/${formSlug}/items?${query}`,
        );
        if (page.data.length === 0) return items;
        items.push(...page.data);
        continuationToken = page.pagination.continuationToken;
      }
    },
    payment: (paymentId) => call("GET", `/payments/${paymentId}`),
    initCheckout: (organizationSlug, body) =>
      call("POST", `/organizations/${organizationSlug}/checkout-intents`, body),
    checkoutIntent: (organizationSlug, id) =>
      call("GET", `/organizations/${organizationSlug}/checkout-intents/${id}`),
    notificationUrl: (url) => call("PUT", "/partners/me/api-notifications", { url }),
  };
}
