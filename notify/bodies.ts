/**
 * Notification bodies shaped like the real ones (`test/fixtures/reference/notification-*.json`: the
 * provider's samples of 2021 and 2024 and integrators' copies): `{eventType, data, metadata?}`, with the
 * fields the OpenAPI models lack (`formName`, `isAnonymous`, `isCanceled` …) and accented text, so that
 * escaping changes the raw bytes. Every body gets its own ids from `n`, so that no two cases of a battery
 * look like the same notification to a receiver that deduplicates. When the receiver reconciles against an
 * API, a payment or order notification names one the API knows instead, as the API gives it.
 */
export type Body = Record<string, unknown>;

/** A payment the API knows, as its listing gives it, and its order as `GET /v5/orders/{id}` gives it. */
export interface KnownPayment {
  readonly payment: Body;
  readonly order: Body;
}

const ORG = {
  organizationName: "Les Amis du Bac à Sable",
  organizationSlug: "amis-du-bac-a-sable",
  organizationType: "Association1901",
  organizationIsUnderColucheLaw: false,
} as const;

const payer = {
  email: "helene.durand@example.org",
  address: "12 rue du Maréchal Foch",
  city: "Bordeaux",
  zipCode: "33000",
  country: "FRA",
  dateOfBirth: "1984-05-15T00:00:00+02:00",
  firstName: "Hélène",
  lastName: "Durand",
};

const stamp = (n: number, second: number) =>
  `2025-02-17T09:${String(10 + (n % 40)).padStart(2, "0")}:${String(second).padStart(2, "0")}.2217994+01:00`;

function orderSummary(n: number): Body {
  return {
    id: 30_000 + n,
    date: stamp(n, 40),
    formSlug: "adhesion-2025",
    formType: "Membership",
    ...ORG,
    formName: "Adhésion 2025",
    meta: { createdAt: stamp(n, 31), updatedAt: stamp(n, 40) },
    isAnonymous: false,
    isAmountHidden: false,
  };
}

/** The fields of payment `n` a payment notification and an order's `payments` entry share, in that order. */
function paymentFields(n: number, state: string): Body {
  return {
    cashOutState: "Transfered",
    paymentReceiptUrl: `https://www.helloasso.com/associations/amis-du-bac-a-sable/adhesions/adhesion-2025/paiement-attestation/${30_000 + n}`,
    id: 70_000 + n,
    amount: 2500,
    date: stamp(n, 51),
    paymentMeans: "Card",
    installmentNumber: 1,
    state,
    meta: { createdAt: stamp(n, 31), updatedAt: stamp(n, 52) },
  };
}

function payment(n: number, state: string): Body {
  return {
    order: orderSummary(n),
    payer,
    items: [
      {
        shareAmount: 2500,
        shareItemAmount: 2500,
        id: 50_000 + n,
        amount: 2500,
        type: "Membership",
        state: "Processed",
        name: "Adhésion annuelle",
      },
    ],
    ...paymentFields(n, state),
    refundOperations: [],
  };
}

function order(n: number): Body {
  return {
    payer,
    items: [
      {
        payments: [{ id: 70_000 + n, shareAmount: 2500 }],
        name: "Adhésion annuelle",
        user: { firstName: "Hélène", lastName: "Durand" },
        priceCategory: "Fixed",
        customFields: [
          { id: 13_218_565, name: "Téléphone portable", type: "TextInput", answer: "06 06 06 06 06" },
          { id: 13_218_574, name: "J'accepte d'être photographié·e", type: "YesNo", answer: "Oui" },
        ],
        isCanceled: false,
        tierId: 8_925_431,
        id: 50_000 + n,
        amount: 2500,
        type: "Membership",
        initialAmount: 2500,
        state: "Processed",
      },
    ],
    payments: [
      {
        items: [{ id: 50_000 + n, shareAmount: 2500, shareItemAmount: 2500 }],
        ...paymentFields(n, "Authorized"),
      },
    ],
    amount: { total: 2500, vat: 0, discount: 0 },
    ...orderSummary(n),
  };
}

function form(n: number): Body {
  return {
    organizationLogo: "https://www.helloasso.com/assets/img/logos/amis-du-bac-a-sable.png",
    organizationName: ORG.organizationName,
    tiers: [
      {
        id: 1_711_234 + n,
        description: "",
        tierType: "Donation",
        price: 2000,
        vatRate: 0,
        paymentFrequency: "Single",
        isEligibleTaxReceipt: true,
      },
      {
        id: 1_711_239 + n,
        description: "Don mensuel",
        tierType: "MonthlyDonation",
        price: 1000,
        vatRate: 0,
        paymentFrequency: "Single",
        isEligibleTaxReceipt: true,
      },
    ],
    currency: "EUR",
    meta: { createdAt: stamp(n, 17), updatedAt: stamp(n, 18) },
    state: "Public",
    title: "<h1>Faire un don à l'association</h1>",
    privateTitle: `Dons ${n}`,
    widgetButtonUrl: `https://www.helloasso.com/associations/amis-du-bac-a-sable/formulaires/${n}/widget-bouton`,
    widgetFullUrl: `https://www.helloasso.com/associations/amis-du-bac-a-sable/formulaires/${n}/widget`,
    formSlug: String(n),
    formType: "Donation",
    url: `https://www.helloasso.com/associations/amis-du-bac-a-sable/formulaires/${n}`,
    organizationSlug: ORG.organizationSlug,
  };
}

function organization(n: number): Body {
  return {
    logo: "https://www.helloasso.com/assets/img/logos/amis-du-bac-a-sable.png",
    name: ORG.organizationName,
    city: "Bordeaux",
    zipCode: "33000",
    description: "Association de quartier : jeux, fêtes et entraide.",
    updateDate: stamp(n, 5),
    url: "https://www.helloasso.com/associations/amis-du-bac-a-sable",
    type: ORG.organizationType,
    category: "Loisirs",
    fiscalReceiptEligibility: true,
    isAuthenticated: true,
    organizationSlug: ORG.organizationSlug,
    id: 90_000 + n,
  };
}

function refundRefused(n: number): Body {
  return {
    ...payment(n, "Authorized"),
    refundOperations: [
      {
        id: 80_000 + n,
        amount: 2500,
        amountTip: 0,
        status: "Refused",
        meta: { createdAt: stamp(n, 55), updatedAt: stamp(n, 58) },
      },
    ],
  };
}

/**
 * The body of a notification of a type (by the contract's type `id`); an id the builders do not know
 * (a future type) gets a payment-shaped `data`, as a real new payment event would.
 *
 * @example notificationBody("payment", "Payment", 3) // { eventType: "Payment", data: { id: 70003, … }, metadata: … }
 */
export function notificationBody(typeId: string, eventType: string, n: number, known?: KnownPayment): Body {
  const made: Record<string, () => Body> = {
    order: () => known?.order ?? order(n),
    form: () => form(n),
    organization: () => organization(n),
    "refund-refused": () => known?.payment ?? refundRefused(n),
    "payment-contested": () => known?.payment ?? payment(n, "Contested"),
  };
  const data =
    (Object.hasOwn(made, typeId) ? made[typeId]?.() : undefined) ??
    known?.payment ??
    payment(n, "Authorized");
  const metadata =
    typeId === "payment" || typeId === "order" ? { metadata: { reference: `adh-2025-${n}` } } : {};
  return { data, eventType, ...metadata };
}
