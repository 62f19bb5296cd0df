import type { BackchannelNotification } from "@prisma/client";
import { getClient, type RegisteredClient } from "../clients/get-client";
import { db } from "../db";
import { tokenResponseBody } from "../oauth/token/token-set";
import { deliverDue, startDue, type Outbox, type Outcome, type RetryPolicy } from "../outbox/outbox";
import { postToClient } from "../outbox/post-to-client";
import { openBackchannelSecret } from "./backchannel-secrets";
import type { BackchannelRequestRow } from "./backchannel-requests";
import { backchannelIdToken, mintBackchannelTokens } from "./backchannel-tokens";
import { revokePushTokens, storePushTokens } from "./push-tokens";

/**
 * Attempts and backoff of a ping or push notification (docs/ciba.md "Delivery"): 5 attempts, the second 2 s after
 * the first failed, each later one three times longer (2 s, 6 s, 18 s, 54 s): a CIBA result is worth little after
 * its request's few minutes. The tests shorten nothing: a retry is 2 s away.
 */
export const CIBA_NOTIFICATION_POLICY: RetryPolicy = { maxAttempts: 5, firstRetryMs: 2_000, factor: 3 };

/**
 * The CIBA notification outbox (BackchannelNotification, queued by settleBackchannelRequest), delivered as the
 * logout outbox is (lib/outbox: one conditional UPDATE claims a row, a lease, retries with backoff, a bounded number
 * of attempts, a 5 s POST without redirects whose answer is not read, the server-side request forgery guard for a
 * dynamically registered client). Each POST is `application/json` with `Authorization: Bearer
 * <client_notification_token>` to the client's backchannel_client_notification_endpoint (CIBA Core §10.2, §10.3):
 * - ping: `{"auth_req_id": ...}`; the client then redeems at the token endpoint;
 * - push, approved: the token response with auth_req_id, minted at the attempt (lib/ciba/push-tokens.ts); the
 *   id_token carries at_hash, urn:openid:params:jwt:claim:auth_req_id and, with a refresh token,
 *   urn:openid:params:jwt:claim:rt_hash; the subscriber suspended (or gone) since the approval: access_denied as below;
 * - push, denied or expired (§12): `{"auth_req_id", "error": "access_denied" | "expired_token", "error_description"}`.
 * A notification given up revokes the tokens a push attempt minted.
 */
export const backchannelOutbox: Outbox<BackchannelNotification> = {
  label: "CIBA client notification",
  metricKind: (row) => (row.kind === "push" ? "ciba_push" : "ciba_ping"),
  policy: CIBA_NOTIFICATION_POLICY,
  findDue: (where, take) => db.backchannelNotification.findMany({ where, orderBy: { nextAttemptAt: "asc" }, take }),
  claim: (where, data) => db.backchannelNotification.updateMany({ where, data }),
  record: (where, data) => db.backchannelNotification.updateMany({ where, data }),
  send: sendNotification,
  onGiveUp: async (row) => {
    if (row.kind === "push") await revokePushTokens({ notificationId: row.id });
  },
};

const final = (error: string): Outcome => ({ delivered: false, final: true, error });

async function sendNotification(row: BackchannelNotification, attempt: number): Promise<Outcome> {
  const request = await db.backchannelRequest.findUnique({ where: { id: row.requestId } });
  if (!request) return final("the backchannel request no longer exists");
  const client = await getClient({ clientId: row.clientId });
  const uri = client?.backchannelClientNotificationEndpoint;
  if (!client || !uri) return final("the client has no backchannel_client_notification_endpoint");
  if (!request.authReqIdSealed || !request.notificationToken) {
    return final("the request has no sealed auth_req_id or client_notification_token");
  }
  const authReqId = openBackchannelSecret(request.authReqIdSealed);
  const push = row.kind === "push" ? await pushBody({ row, attempt, request, client, authReqId }) : undefined;
  if (push && "outcome" in push) return push.outcome;
  const body = push ? push.body : { auth_req_id: authReqId };
  return postToClient({ uri, body: JSON.stringify(body), contentType: "application/json",
    authorization: `Bearer ${openBackchannelSecret(request.notificationToken)}`, trusted: client.registeredBy === "admin" });
}

/** What a push attempt sends: fresh tokens for an approved request, the error for a denied or expired one. */
async function pushBody({ row, attempt, request, client, authReqId }: {
  row: BackchannelNotification; attempt: number; request: BackchannelRequestRow; client: RegisteredClient;
  authReqId: string;
}): Promise<{ body: Record<string, string | number> } | { outcome: Outcome }> {
  if (request.status === "denied") return { body: deniedBody(authReqId) };
  if (request.status === "expired") {
    return { body: { auth_req_id: authReqId, error: "expired_token",
      error_description: "the authentication request expired before the subscriber answered" } };
  }
  if (request.status !== "approved" && request.status !== "redeemed") {
    return { outcome: final(`the request is ${request.status}`) };
  }
  const now = new Date();
  const tokens = mintBackchannelTokens({ client, request, now, family: true, mode: "push" });
  const stored = await storePushTokens({ notificationId: row.id, attempt, requestId: request.id,
    previousFamilyId: row.tokenFamilyId, at: now, ...tokens.rows,
    accessToken: { ...tokens.rows.accessToken, familyId: tokens.familyId! } });
  // A subscriber suspended (or gone) since the approval: nothing was stored, the client is told access_denied
  // (suspendSubscriber also denies the request; this covers a push whose request was already redeemed).
  if (stored === "inactive") return { body: deniedBody(authReqId) };
  if (!stored) return { outcome: { delivered: false, final: false, error: "the attempt lost its lease" } };
  const idToken = await backchannelIdToken({ client, request, accessToken: tokens.access.value, now, authReqId,
    refreshToken: tokens.refresh?.value });
  return { body: { auth_req_id: authReqId, ...tokenResponseBody({ now, client, tokens: { accessToken: tokens.access.value,
    accessTokenExpiresAt: tokens.accessTokenExpiresAt, scope: request.scope, idToken, refreshToken: tokens.refresh?.value } }) } };
}

const deniedBody = (authReqId: string) => ({ auth_req_id: authReqId, error: "access_denied",
  error_description: "the subscriber denied the authentication request" });

/** Delivers the due notifications and waits for them (tests, maintenance); returns how many were attempted. */
export function deliverDueBackchannelNotifications({ now }: { now?: Date } = {}): Promise<number> {
  return deliverDue(backchannelOutbox, { now });
}

/** Claims up to `capacity` due notifications and starts them (the worker's pass). */
export function startDueBackchannelNotifications(capacity: number, now = new Date()) {
  return startDue(backchannelOutbox, { take: capacity, now });
}
