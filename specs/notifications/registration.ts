import { type CheckContext, readerGet } from "../runner/context.js";
import { evidenceOf, type HttpExchange, isSuccess, parseJson } from "../runner/http.js";
import type { Evidence } from "../runner/types.js";

/** One entry of partner information's `urlNotificationList`. */
export interface Listed {
  url: string;
  notificationType: string | undefined;
  signatureKey: string | undefined;
}

/** Where a notification URL is registered: partner-wide, or for one organization. */
export type Scope = { kind: "partner" } | { kind: "organization"; organizationSlug: string };

/** A URL verify registered, the key partner information gives for it, and what it replaced. */
export interface Registered {
  name: string;
  url: string;
  scope: Scope;
  key: string | undefined;
  /** Partner information as read when it gave no key for `url`. */
  keyEvidence?: Evidence;
  replaced: readonly Listed[];
}

const sameEntry = (a: Listed, b: Listed) => a.url === b.url && a.notificationType === b.notificationType;

/** `GET /v5/partners/me`: the notification URLs and their keys. */
export async function readPartner(ctx: CheckContext): Promise<{ exchange: HttpExchange; list: Listed[] }> {
  const exchange = await readerGet(ctx, await ctx.urlOf(ctx.contract.routes.byId("v5.partner-info")));
  const parsed = isSuccess(exchange.status) ? parseJson(exchange) : undefined;
  const raw = parsed?.ok
    ? (parsed.value as { urlNotificationList?: unknown } | null)?.urlNotificationList
    : undefined;
  const list: Listed[] = [];
  if (Array.isArray(raw)) {
    for (const entry of raw as Record<string, unknown>[]) {
      if (typeof entry?.url !== "string") continue;
      list.push({
        url: entry.url,
        notificationType:
          typeof entry.apiNotificationType === "string" ? entry.apiNotificationType : undefined,
        signatureKey:
          typeof entry.signatureKey === "string" && entry.signatureKey !== ""
            ? entry.signatureKey
            : undefined,
      });
    }
  }
  return { exchange, list };
}

/** The URL of a scope's notification route: partner-wide (`partner`) or an organization's (`org`). */
async function scopeUrl(ctx: CheckContext, scope: Scope, partner: string, org: string): Promise<string> {
  return scope.kind === "partner"
    ? ctx.urlOf(ctx.contract.routes.byId(partner), {})
    : ctx.urlOf(ctx.contract.routes.byId(org), { organizationSlug: scope.organizationSlug });
}

/** `PUT` a notification URL for a scope (`notificationType` kept when restoring a typed one). */
export async function putUrl(ctx: CheckContext, scope: Scope, url: string, notificationType?: string) {
  return ctx.http.send({
    method: "PUT",
    url: await scopeUrl(ctx, scope, "v5.notification-url", "v5.notification-url-org"),
    authorization: await ctx.authorization("reader"),
    body: {
      contentType: "application/json",
      text: JSON.stringify(notificationType === undefined ? { url } : { url, notificationType }),
    },
  });
}

export type RegisterResult =
  | { ok: true; registered: Registered; partner: HttpExchange }
  | { ok: false; reason: string; evidence: Evidence };

/**
 * Registers `url` for a scope, then reads partner information: the key it gives for `url`, and the
 * entries that disappeared (the registration `url` replaced, to be put back afterwards).
 */
export async function register(
  ctx: CheckContext,
  name: string,
  url: string,
  scope: Scope,
): Promise<RegisterResult> {
  const before = await readPartner(ctx);
  const put = await putUrl(ctx, scope, url);
  const where = scope.kind === "partner" ? "partner-wide" : `for ${scope.organizationSlug}`;
  if (!isSuccess(put.status)) {
    return {
      ok: false,
      reason: `registering the receiver ${where} was refused with ${put.status}`,
      evidence: evidenceOf(put),
    };
  }
  const after = await readPartner(ctx);
  const key = after.list.find((e) => e.url === url)?.signatureKey;
  const replaced = before.list.filter(
    (old) => old.url !== url && !after.list.some((now) => sameEntry(now, old)),
  );
  const registered: Registered =
    key === undefined
      ? { name, url, scope, key, replaced, keyEvidence: evidenceOf(after.exchange, after.list) }
      : { name, url, scope, key, replaced };
  return { ok: true, registered, partner: after.exchange };
}

/** `DELETE` the notification URL of a scope (the receiver's, where there was none before verify's). */
async function deleteUrl(ctx: CheckContext, scope: Scope) {
  return ctx.http.send({
    method: "DELETE",
    url: await scopeUrl(ctx, scope, "v5.notification-url-delete", "v5.notification-url-org-delete"),
    authorization: await ctx.authorization("reader"),
  });
}

/**
 * Puts back what verify's registrations replaced, and removes the receiver's URL from a scope that had
 * none before; says what it did. A target that refuses the removal keeps the receiver's (dead) URL,
 * which the sentence says.
 */
export async function restore(ctx: CheckContext, registrations: readonly Registered[]): Promise<string> {
  const notes: string[] = [];
  /** One request of the putting back: `done` when it was taken, else what `doing` met. */
  const attempt = async (send: () => Promise<HttpExchange>, done: string, doing: string, refused = "") => {
    try {
      const answer = await send();
      notes.push(isSuccess(answer.status) ? done : `${doing} was refused (${answer.status})${refused}`);
    } catch (error) {
      notes.push(`${doing} failed: ${(error as Error).message}`);
    }
  };
  for (const r of registrations) {
    const where = r.scope.kind === "partner" ? "partner-wide" : `for ${r.scope.organizationSlug}`;
    if (r.replaced.length === 0) {
      const [done, doing] = [`removed the receiver's URL ${where}`, `removing the receiver's URL ${where}`];
      const remove = () => deleteUrl(ctx, r.scope);
      await attempt(remove, `${done} (none was registered before)`, doing, ": it stays registered");
    }
    for (const old of r.replaced) {
      const put = () => putUrl(ctx, r.scope, old.url, old.notificationType);
      await attempt(put, `restored ${old.url} ${where}`, `restoring ${old.url} ${where}`);
    }
  }
  return notes.join("; ");
}
