import { createHash, randomInt } from "node:crypto";
import type { Prisma } from "@prisma/client";
import { config } from "../config";
import { db } from "../db";
import { randomToken } from "../crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { addressSubject } from "../http/address-subject";
import { hitRateLimits } from "../security/hit-rate-limit";
import {
  approvalsPerClient, approvalsPerClientAndNumber, approvalsPerIp, approvalsPerIpAndNumber, approvalsPerNumber,
  approvalsPerNumberFromDynamicClients,
} from "./approval-limits";
import { describeOrigin } from "./describe-origin";
import { publishDeviceEvent } from "./device-events-bus";

/** How long a consumption device counts as present after a wait starts without a later one. */
export const ATTENDED_GRACE_MS = 15_000;

export type DeviceRequestCreated =
  | { ok: true; id: string; checkCode: string }
  | { ok: false; reason: "rate_limited" | "too_many_pending"; retryAfter: number };

const TOO_MANY_PENDING = new Error("too many pending approval requests");

/**
 * Creates one out-of-band approval request, the only place that does (used by `prompt=mobile` and
 * by "approve on your phone" on the sign-in screens).
 * - Limits first (atomic window counters, approval-limits.ts), most specific first, stopping at the first refusal
 *   (a refused request counts only in the limits it passed): per requester and number, per requester IP, per
 *   number, per client; then, in the writing transaction (on PostgreSQL after advisory locks on the subscriber and
 *   then the client, so parallel creations cannot exceed them), the pending ceilings per subscriber and per client.
 *   A refusal is audited and returned, nothing is stored or shown.
 * - Number matching: a fresh two-digit check code, shown only on the consumption device; the
 *   handset approves only when the subscriber types it (answer-device-request.ts), so an approval
 *   the subscriber did not start cannot succeed with one tap.
 * - `subscriberId` is set only when the request can be delivered (an active subscriber with a
 *   handset); otherwise the row is stored the same way but never listed, so neither the answer nor
 *   its timing tells whether the number has a handset.
 * - `prepare` runs first in the same transaction (the user's own record, such as the stored
 *   authorization request of `prompt=mobile`); `replace` deletes an older handset request of the
 *   same authorization request there ("approve on your phone" again after an answer or expiry).
 * Every creation is audited with the client, the requester's IP and the coarse origin.
 *
 * A CIBA request (`backchannel`, lib/ciba): the relying party's server is the requester, one address for all its
 * requests, so the limits key on the client instead of the IP (per client and number, per number, per client);
 * `prepare` writes the BackchannelRequest row. On the handset channel the DeviceRequest carries
 * `backchannelRequestId`, no check code (the verified binding message is the interlock), no origin (the relying
 * party's server says nothing to the subscriber) and is attended until it expires (no browser waits). On the
 * text-message channel no DeviceRequest is written (the subscriber answers through the link). The subscriber's
 * ceiling counts their pending BackchannelRequests (every channel, active or suspended alike) and the browser flows'
 * live DeviceRequests; the client's also counts its pending text-message requests. A dynamically registered client
 * (registeredBy "dynamic") counts per number in its own bucket (oob-num-dyn), never in the shared one, and at most
 * APPROVAL_PENDING_DYNAMIC_PER_SUBSCRIBER of the subscriber's pending requests may come from such clients.
 */
export async function createDeviceRequest({ authorizationRequestId, backchannel, numberKey, subscriberId, client,
  text, scope, acr, expiresAt, ip, userAgent, flow, prepare, replace = false }: {
  numberKey: string; subscriberId: string | null;
  client: { id: string; name: string; registeredBy?: "admin" | "dynamic" };
  text: { context?: string | null; bindingMessage?: string | null; verified: boolean };
  scope: string; acr: string; expiresAt: Date; ip: string; userAgent: string | null;
  prepare?: (tx: Prisma.TransactionClient) => Promise<unknown>; replace?: boolean;
} & (
  | { authorizationRequestId: string; backchannel?: undefined; flow: "prompt_mobile" | "phone" }
  | { authorizationRequestId?: undefined; flow: "ciba";
    /** The BackchannelRequest's id, its channel and (for the text-message ceilings) its subscriber. */
    backchannel: { requestId: string; channel: "handset" | "sms"; subscriberId: string } }
)): Promise<DeviceRequestCreated> {
  const requester = addressSubject(ip); // an IPv6 /64 is one requester
  const dynamic = backchannel !== undefined && client.registeredBy === "dynamic";
  // Most specific first; a refused request counts only in the limits it passed (hitRateLimits stops at a refusal).
  const refused = await hitRateLimits(backchannel ? [
    [approvalsPerClientAndNumber(), `${client.id} ${numberKey}`],
    dynamic ? [approvalsPerNumberFromDynamicClients(), numberKey] : [approvalsPerNumber(), numberKey],
    [approvalsPerClient(), client.id],
  ] : [
    [approvalsPerIpAndNumber(), `${requester} ${numberKey}`],
    [approvalsPerIp(ip), requester],
    [approvalsPerNumber(), numberKey],
    [approvalsPerClient(), client.id],
  ]);
  if (refused) {
    const retryAfter = refused.verdict.retryAfter;
    await recordAuditEvent({ type: "approval_requested", outcome: "throttled", subscriberId, clientId: client.id, ip,
      detail: { flow, reason: "rate_limited", retry_after: retryAfter } });
    return { ok: false, reason: "rate_limited", retryAfter };
  }
  const now = new Date();
  const id = randomToken(16);
  const checkCode = backchannel ? "" : String(randomInt(10, 100));
  const origin = backchannel ? null : describeOrigin({ ip, userAgent });
  try {
    await db.$transaction(async (tx) => {
      // PostgreSQL (READ COMMITTED): serialise the count-then-insert per subscriber, then per client (always in that
      // order), so parallel creations cannot exceed the ceilings. SQLite: one writer at a time already.
      if (!config().DATABASE_URL.startsWith("file:")) {
        await advisoryLock(tx, `oob-subscriber:${backchannel?.subscriberId ?? subscriberId ?? numberKey}`);
        await advisoryLock(tx, `oob-client:${client.id}`);
      }
      // Waiting on a handset now: pending, not expired, its browser still there (abandoned ones do not count).
      const live = { status: "pending", expiresAt: { gt: now }, attendedUntil: { gt: now } };
      // The same counts for every number (an id that matches nothing when it is not deliverable).
      const theirs = () => tx.deviceRequest.count({ where: { clientId: client.id, ...live } });
      if (backchannel) {
        // The subscriber's pending backchannel requests, every channel, whether or not they are active (a
        // suspended subscriber's DeviceRequest has no subscriberId: counting those would tell them apart), plus
        // the browser flows' live DeviceRequests. Text-message requests have no DeviceRequest: they hold a slot
        // of the client all the same.
        const pending = { status: "pending", expiresAt: { gt: now } };
        const [theirLive, browser, myBackchannel, theirSms] = await Promise.all([theirs(),
          tx.deviceRequest.count({ where: { subscriberId: subscriberId ?? "", backchannelRequestId: null, ...live } }),
          tx.backchannelRequest.groupBy({ by: ["clientId"], where: { subscriberId: backchannel.subscriberId, ...pending },
            _count: { _all: true } }),
          tx.backchannelRequest.count({ where: { clientId: client.id, channel: "sms", ...pending } }),
        ]);
        const mineAll = browser + myBackchannel.reduce((n, g) => n + g._count._all, 0);
        if (mineAll >= config().APPROVAL_PENDING_PER_SUBSCRIBER
          || theirLive + theirSms >= config().APPROVAL_PENDING_PER_CLIENT) throw TOO_MANY_PENDING;
        if (dynamic) {
          // At most APPROVAL_PENDING_DYNAMIC_PER_SUBSCRIBER of them from dynamically registered clients.
          const ids = myBackchannel.map((g) => g.clientId);
          const dynamicIds = ids.length === 0 ? [] : await tx.client.findMany({
            where: { id: { in: ids }, registeredBy: "dynamic" }, select: { id: true } });
          const fromDynamic = myBackchannel.filter((g) => dynamicIds.some((c) => c.id === g.clientId))
            .reduce((n, g) => n + g._count._all, 0);
          if (fromDynamic >= config().APPROVAL_PENDING_DYNAMIC_PER_SUBSCRIBER) throw TOO_MANY_PENDING;
        }
      } else {
        const [mine, theirLive] = await Promise.all([
          tx.deviceRequest.count({ where: { subscriberId: subscriberId ?? "", ...live } }), theirs()]);
        if (mine >= config().APPROVAL_PENDING_PER_SUBSCRIBER || theirLive >= config().APPROVAL_PENDING_PER_CLIENT) {
          throw TOO_MANY_PENDING;
        }
      }
      await prepare?.(tx);
      if (replace && authorizationRequestId) await tx.deviceRequest.deleteMany({ where: { authorizationRequestId } });
      if (backchannel?.channel !== "sms") {
        await tx.deviceRequest.create({
          data: { id, authorizationRequestId: authorizationRequestId ?? null,
            backchannelRequestId: backchannel?.requestId ?? null, subscriberId, clientId: client.id,
            clientName: client.name, context: text.context ?? null, bindingMessage: text.bindingMessage ?? null,
            textVerified: backchannel ? true : text.verified, checkCode, origin, scope, acr, expiresAt,
            attendedUntil: backchannel ? expiresAt : new Date(now.getTime() + ATTENDED_GRACE_MS) },
          select: { id: true },
        });
      }
      await recordAuditEvent({ type: "approval_requested", outcome: "success", subscriberId, clientId: client.id, ip,
        detail: { flow, delivered: subscriberId !== null, origin, expires_at: expiresAt.toISOString(),
          ...(backchannel ? { channel: backchannel.channel } : {}) } }, tx);
    });
  } catch (err) {
    if (err !== TOO_MANY_PENDING) throw err;
    const retryAfter = 60;
    await recordAuditEvent({ type: "approval_requested", outcome: "throttled", subscriberId, clientId: client.id, ip,
      detail: { flow, reason: "too_many_pending" } });
    return { ok: false, reason: "too_many_pending", retryAfter };
  }
  // The handset may be connected to another instance (device-events-bus.ts).
  if (subscriberId && backchannel?.channel !== "sms") publishDeviceEvent({ kind: "created", subscriberId, requestId: id });
  return { ok: true, id, checkCode };
}

/** A transaction-scoped PostgreSQL advisory lock on `key` (a signed 64-bit number from its SHA-256), held until commit. */
async function advisoryLock(tx: Prisma.TransactionClient, key: string): Promise<void> {
  const id = createHash("sha256").update(key).digest().readBigInt64BE(0);
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${id}::bigint)`;
}
