import { randomUUID } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { db } from "../db";
import { auditEventRow } from "../audit/record-audit-event";
import { parseScope } from "../oauth/scopes";
import { splitNetworkApiScopes } from "../network-apis/camara-scopes";
import { kickBackchannelDelivery } from "../ciba/backchannel-delivery";
import { settleBackchannelRequest } from "../ciba/settle-backchannel-request";

/**
 * The subscriber's consents to network APIs (ApiConsent, docs/network-apis.md "Consent and withdrawal"): one row
 * per subscriber, client and purpose, holding the API scopes consented for that purpose. Withdrawal sets
 * withdrawnAt and revokes the client's tokens carrying that purpose; a later consent brings the row back with only
 * the newly consented scopes.
 */
export interface ApiConsentView {
  id: string;
  clientId: string;
  purpose: string;
  scopes: string[];
  /** Since when the current consent holds (the first consent, or the first one after a withdrawal). */
  since: Date;
  updatedAt: Date;
}

/**
 * Records consent to `scopes` for (subscriber, client, purpose) inside the caller's transaction: a new row, or the
 * union with a consent still in force, or a fresh set when the earlier one was withdrawn. The row is locked by the
 * update before it is read again, so two approvals racing keep both scope sets.
 */
export async function recordApiConsentIn(tx: Prisma.TransactionClient, { subscriberId, clientId, purpose, scopes, at }: {
  subscriberId: string; clientId: string; purpose: string; scopes: readonly string[]; at: Date;
}): Promise<void> {
  if (!scopes.length) return;
  const key = { subscriberId_clientId_purpose: { subscriberId, clientId, purpose } };
  // A withdrawn consent starts again from the new scopes (one conditional UPDATE).
  await tx.apiConsent.updateMany({ where: { subscriberId, clientId, purpose, withdrawnAt: { not: null } },
    data: { withdrawnAt: null, scope: "", createdAt: at } });
  const row = await tx.apiConsent.upsert({ where: key,
    create: { id: randomUUID(), subscriberId, clientId, purpose, scope: scopes.join(" "), createdAt: at },
    update: { updatedAt: at }, select: { scope: true } });
  const scope = [...new Set([...parseScope(row.scope), ...scopes])].join(" ");
  if (scope !== row.scope) await tx.apiConsent.update({ where: key, data: { scope } });
}

/** A subscriber's consents in force, most recent first. */
export async function listApiConsents({ subscriberId }: { subscriberId: string }): Promise<ApiConsentView[]> {
  const rows = await db.apiConsent.findMany({ where: { subscriberId, withdrawnAt: null },
    orderBy: { updatedAt: "desc" }, take: 200 });
  return rows.map((r) => ({ id: r.id, clientId: r.clientId, purpose: r.purpose, scopes: parseScope(r.scope),
    since: r.createdAt, updatedAt: r.updatedAt }));
}

/** Whether the token scope string `scope` carries `purpose` (exact scope token, not a prefix). */
export function scopeCarries(scope: string, purpose: string): boolean {
  return parseScope(scope).includes(purpose);
}

/**
 * Withdraws a consent (the account page, or the operator): in one transaction the row's withdrawnAt is set (one
 * conditional UPDATE: of two concurrent withdrawals one wins), then what the client could still redeem for this
 * subscriber with that purpose is ended (endUnredeemedGrantsIn: CIBA requests denied, authorization codes expired),
 * then the client's access and refresh tokens for this subscriber whose scope carries that purpose are revoked
 * (after the grants: a redemption that commits first has its tokens revoked by the later statement), and
 * `consent_withdrawn` is audited. The consent is found by (subscriber, client, purpose), so a subscriber can only
 * withdraw their own. False when none was in force.
 */
export async function withdrawApiConsent({ subscriberId, clientId, purpose, by, ip, now = new Date() }: {
  subscriberId: string; clientId: string; purpose: string; by: "subscriber" | "operator"; ip?: string | null;
  now?: Date;
}): Promise<boolean> {
  const result = await db.$transaction(async (tx) => {
    const done = await tx.apiConsent.updateMany({ where: { subscriberId, clientId, purpose, withdrawnAt: null },
      data: { withdrawnAt: now } });
    if (done.count !== 1) return false;
    const ended = await endUnredeemedGrantsIn(tx, { subscriberId, clientId, purpose, now });
    const where = { subscriberId, clientId, revokedAt: null, expiresAt: { gt: now }, scope: { contains: purpose } };
    const [access, refresh] = await Promise.all([
      tx.accessToken.findMany({ where, select: { tokenHash: true, scope: true } }),
      tx.refreshToken.findMany({ where, select: { tokenHash: true, scope: true } }),
    ]);
    const hashes = (rows: { tokenHash: string; scope: string }[]) =>
      rows.filter((r) => scopeCarries(r.scope, purpose)).map((r) => r.tokenHash);
    const a = await tx.accessToken.updateMany({ where: { tokenHash: { in: hashes(access) }, revokedAt: null },
      data: { revokedAt: now } });
    const r = await tx.refreshToken.updateMany({ where: { tokenHash: { in: hashes(refresh) }, revokedAt: null },
      data: { revokedAt: now } });
    await tx.auditEvent.create({ data: auditEventRow({ type: "consent_withdrawn", outcome: "success", subscriberId,
      clientId, ip, at: now, detail: { purpose, by, revoked_tokens: a.count + r.count, denied_requests: ended.requests,
      expired_codes: ended.codes } }), select: { id: true } });
    return { queued: ended.queued };
  });
  if (!result) return false;
  if (result.queued) kickBackchannelDelivery(); // after the commit, as suspendSubscriber does
  return true;
}

/**
 * Inside the withdrawal's transaction, ends the grants approved (or still asked) but not yet redeemed whose scope
 * carries `purpose` as a whole scope (scopeCarries), for this client and subscriber, so none yields a token after
 * the withdrawal (the grants do not read ApiConsent again when redeemed):
 * - CIBA requests pending: denied through settleBackchannelRequest, the one place a pending request ends (one
 *   conditional UPDATE each; a ping or push client is told by the notification it queues);
 * - CIBA requests approved, not redeemed: approved → denied (one conditional UPDATE, as suspendSubscriber does;
 *   answeredAt keeps the approval's instant, any notification is already queued: a poll or a push attempt now reads
 *   access_denied);
 * - push requests redeemed whose notification is still being delivered: redeemed → denied, so a retry sends
 *   access_denied instead of minting tokens again (those already minted carry the purpose and are revoked next);
 * - authorization codes not used: expiresAt set to now (one conditional UPDATE, still unused). Not usedAt: a used
 *   code presented again is a replay (revokes the code's tokens, audits code_replay); an expired one is only
 *   invalid_grant "expired", which is what it is.
 * The candidates are read with `contains` and filtered by whole scope in code (as the token revocation is).
 */
async function endUnredeemedGrantsIn(tx: Prisma.TransactionClient, { subscriberId, clientId, purpose, now }: {
  subscriberId: string; clientId: string; purpose: string; now: Date;
}): Promise<{ requests: number; codes: number; queued: boolean }> {
  const carried = <T extends { scope: string }>(rows: T[]) => rows.filter((r) => scopeCarries(r.scope, purpose));
  const requests = carried(await tx.backchannelRequest.findMany({
    where: { subscriberId, clientId, scope: { contains: purpose },
      OR: [{ status: { in: ["pending", "approved"] } }, { status: "redeemed", deliveryMode: "push" }] },
    select: { id: true, status: true, scope: true } }));
  let denied = 0;
  let queued = false;
  for (const request of requests.filter((r) => r.status === "pending")) {
    if (await settleBackchannelRequest(tx, { requestId: request.id, settlement: { outcome: "denied" }, at: now })) {
      denied += 1;
      queued = true;
    }
  }
  const approved = requests.filter((r) => r.status === "approved").map((r) => r.id);
  if (approved.length) {
    denied += (await tx.backchannelRequest.updateMany({ where: { id: { in: approved }, status: "approved" },
      data: { status: "denied" } })).count;
  }
  const pushed = requests.filter((r) => r.status === "redeemed").map((r) => r.id);
  if (pushed.length) {
    const undelivered = await tx.backchannelNotification.findMany({ where: { requestId: { in: pushed },
      kind: "push", deliveredAt: null, failedAt: null }, select: { requestId: true } });
    const ids = [...new Set(undelivered.map((n) => n.requestId))];
    if (ids.length) {
      denied += (await tx.backchannelRequest.updateMany({ where: { id: { in: ids }, status: "redeemed" },
        data: { status: "denied" } })).count;
    }
  }
  const codes = carried(await tx.authorizationCode.findMany({
    where: { subscriberId, clientId, usedAt: null, expiresAt: { gt: now }, scope: { contains: purpose } },
    select: { codeHash: true, scope: true } })).map((c) => c.codeHash);
  const expired = codes.length
    ? (await tx.authorizationCode.updateMany({ where: { codeHash: { in: codes }, usedAt: null, expiresAt: { gt: now } },
      data: { expiresAt: now } })).count
    : 0;
  return { requests: denied, codes: expired, queued };
}

/**
 * The subscriber approved a request (the consent screen): records consent to its API scopes whose declared basis
 * for its purpose is `consent` (the others need none). Nothing is read or written for a request without API scope.
 */
export async function recordApiConsent({ subscriberId, clientId, scopes, at = new Date() }: {
  subscriberId: string; clientId: string; scopes: readonly string[]; at?: Date;
}): Promise<void> {
  if (!splitNetworkApiScopes(scopes).apiScopes.length) return;
  await db.$transaction((tx) => recordApiConsentForApprovalIn(tx, { subscriberId, clientId, scope: scopes.join(" "),
    at }));
}

/**
 * recordApiConsent inside the caller's transaction, for an approval of a request whose scope string is `scope`
 * (CIBA's handset approval: lib/ciba/settle-backchannel-request.ts). No statement without API scope.
 */
export async function recordApiConsentForApprovalIn(tx: Prisma.TransactionClient, { subscriberId, clientId, scope, at }: {
  subscriberId: string; clientId: string; scope: string; at: Date;
}): Promise<void> {
  const { apiScopes, purposes } = splitNetworkApiScopes(parseScope(scope));
  if (!apiScopes.length || purposes.length !== 1) return;
  const purpose = purposes[0]!;
  const rows = await tx.apiPurpose.findMany({ where: { purpose, scope: { in: apiScopes }, legalBasis: "consent" },
    select: { scope: true } });
  const consentScopes = apiScopes.filter((s) => rows.some((r) => r.scope === s));
  if (!consentScopes.length) return;
  await recordApiConsentIn(tx, { subscriberId, clientId, purpose, scopes: consentScopes, at });
}
