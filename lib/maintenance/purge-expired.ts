import type { BackchannelStatus } from "../ciba/ciba";
import { config } from "../config";
import { db } from "../db";

const BACKCHANNEL_STATUSES: readonly BackchannelStatus[] = ["pending", "approved", "denied", "expired", "redeemed"];

/** Rows per DELETE: each batch is one short statement, so the write lock is never held for long. */
export const PURGE_BATCH = 500;
/**
 * How long expired short-lived rows are kept: a browser returning to an expired sign-in still
 * reads "expired" (and the relying party gets access_denied) rather than "unknown" for an hour.
 */
const REQUEST_GRACE_MS = 3_600_000;
/** Expired access and refresh tokens are kept a day: introspection and support can still tell "expired" from "unknown". */
const TOKEN_GRACE_MS = 86_400_000;
/** The device inbox (the local messaging channel) keeps a day of messages. */
const MESSAGE_RETENTION_MS = 86_400_000;

export type PurgeCounts = Record<
  "deviceRequests" | "deviceEnrolments" | "authorizationRequests" | "authorizationCodes" | "messages" | "rateLimits"
  | "accessTokens" | "refreshTokens" | "clientAccessTokens" | "usedJwtIds" | "pushedRequests" | "initialAccessTokens"
  | "backchannelRequests" | "backchannelNotifications",
  number
>;

/**
 * Deletes rows that can no longer be used, in batches of PURGE_BATCH with a yield to the event loop
 * between batches (other requests' writes interleave; SQLite has one writer). Audit events,
 * subscribers, clients, keys, grants and devices are never touched.
 * - DeviceRequest, DeviceEnrolment, AuthorizationRequest: expired more than an hour ago;
 * - AuthorizationCode: unused ones an hour after expiry; used ones only once every token issued
 *   from them has expired (REFRESH_TOKEN_TTL), because a replayed code must still find its row to
 *   revoke those tokens (RFC 6749 §4.1.2);
 * - Message: older than a day; RateLimit: windows that have ended;
 * - AccessToken, RefreshToken, ClientAccessToken: expired more than a day ago;
 * - UsedJwtId (replay cache), PushedAuthorizationRequest, InitialAccessToken: expired (a jti is kept until the
 *   assertion it came in could no longer be accepted anyway);
 * - BackchannelRequest (CIBA): expired more than an hour ago, whatever its status (a poll then reads invalid_grant);
 *   BackchannelNotification: delivered or given up, its last attempt more than an hour ago (nextAttemptAt).
 * Returns how many rows of each kind were deleted.
 */
export async function purgeExpired({ now = new Date(), batch = PURGE_BATCH }: { now?: Date; batch?: number } = {}):
  Promise<PurgeCounts> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const requests = ago(REQUEST_GRACE_MS);
  const tokens = ago(TOKEN_GRACE_MS);
  const usedCodes = ago(config().REFRESH_TOKEN_TTL * 1000);
  const take = batch;
  return {
    deviceRequests: await drain(
      () => db.deviceRequest.findMany({ where: { expiresAt: { lt: requests } }, select: { id: true }, take }),
      (ids) => db.deviceRequest.deleteMany({ where: { id: { in: ids } } }), (r) => r.id, batch),
    deviceEnrolments: await drain(
      () => db.deviceEnrolment.findMany({ where: { expiresAt: { lt: requests } }, select: { id: true }, take }),
      (ids) => db.deviceEnrolment.deleteMany({ where: { id: { in: ids } } }), (r) => r.id, batch),
    authorizationRequests: await drain(
      () => db.authorizationRequest.findMany({ where: { expiresAt: { lt: requests } }, select: { id: true }, take }),
      (ids) => db.authorizationRequest.deleteMany({ where: { id: { in: ids } } }), (r) => r.id, batch),
    authorizationCodes: await drain(
      () => db.authorizationCode.findMany({
        where: { OR: [{ usedAt: null, expiresAt: { lt: requests } }, { expiresAt: { lt: usedCodes } }] },
        select: { codeHash: true }, take,
      }),
      (ids) => db.authorizationCode.deleteMany({ where: { codeHash: { in: ids } } }), (r) => r.codeHash, batch),
    messages: await drain(
      () => db.message.findMany({ where: { createdAt: { lt: ago(MESSAGE_RETENTION_MS) } }, select: { id: true }, take }),
      (ids) => db.message.deleteMany({ where: { id: { in: ids } } }), (r) => r.id, batch),
    rateLimits: await drain(
      () => db.rateLimit.findMany({ where: { expiresAt: { lt: now } }, select: { key: true }, take }),
      // re-checked in the DELETE: a window renewed since the read is kept
      (ids) => db.rateLimit.deleteMany({ where: { key: { in: ids }, expiresAt: { lt: now } } }), (r) => r.key, batch),
    accessTokens: await drain(
      () => db.accessToken.findMany({ where: { expiresAt: { lt: tokens } }, select: { tokenHash: true }, take }),
      (ids) => db.accessToken.deleteMany({ where: { tokenHash: { in: ids } } }), (r) => r.tokenHash, batch),
    refreshTokens: await drain(
      () => db.refreshToken.findMany({ where: { expiresAt: { lt: tokens } }, select: { tokenHash: true }, take }),
      (ids) => db.refreshToken.deleteMany({ where: { tokenHash: { in: ids } } }), (r) => r.tokenHash, batch),
    clientAccessTokens: await drain(
      () => db.clientAccessToken.findMany({ where: { expiresAt: { lt: tokens } }, select: { tokenHash: true }, take }),
      (ids) => db.clientAccessToken.deleteMany({ where: { tokenHash: { in: ids } } }), (r) => r.tokenHash, batch),
    usedJwtIds: await drain(
      () => db.usedJwtId.findMany({ where: { expiresAt: { lt: now } }, select: { key: true }, take }),
      (ids) => db.usedJwtId.deleteMany({ where: { key: { in: ids } } }), (r) => r.key, batch),
    pushedRequests: await drain(
      () => db.pushedAuthorizationRequest.findMany({ where: { expiresAt: { lt: requests } }, select: { uriHash: true }, take }),
      (ids) => db.pushedAuthorizationRequest.deleteMany({ where: { uriHash: { in: ids } } }), (r) => r.uriHash, batch),
    initialAccessTokens: await drain(
      () => db.initialAccessToken.findMany({ where: { expiresAt: { lt: now } }, select: { tokenHash: true }, take }),
      (ids) => db.initialAccessToken.deleteMany({ where: { tokenHash: { in: ids } } }), (r) => r.tokenHash, batch),
    backchannelRequests: await drain(
      // every status named: the [status, expiresAt] index serves the range
      () => db.backchannelRequest.findMany({ where: { status: { in: [...BACKCHANNEL_STATUSES] }, expiresAt: { lt: requests } },
        select: { id: true }, take }),
      (ids) => db.backchannelRequest.deleteMany({ where: { id: { in: ids } } }), (r) => r.id, batch),
    backchannelNotifications: await drain(
      () => db.backchannelNotification.findMany({ where: { nextAttemptAt: { lt: requests },
        OR: [{ deliveredAt: { not: null } }, { failedAt: { not: null } }] }, select: { id: true }, take }),
      (ids) => db.backchannelNotification.deleteMany({ where: { id: { in: ids } } }), (r) => r.id, batch),
  };
}

/** Reads up to `batch` keys, deletes them, yields, repeats until a read comes back short. */
async function drain<R>(
  read: () => Promise<R[]>, remove: (keys: string[]) => Promise<{ count: number }>, key: (row: R) => string, batch: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await read();
    if (rows.length === 0) return total;
    total += (await remove(rows.map(key))).count;
    if (rows.length < batch) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
