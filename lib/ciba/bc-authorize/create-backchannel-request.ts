import type { RegisteredClient } from "../../clients/get-client";
import { config } from "../../config";
import { encryptAtRest } from "../../crypto";
import { db } from "../../db";
import { logger } from "../../log";
import { getMessagingChannel } from "../../messaging/messaging-channel";
import { TemporarilyUnavailable } from "../../oauth/errors";
import { createDeviceRequest } from "../../out-of-band/create-device-request";
import { mintToken } from "../../tokens/mint-token";
import type { BackchannelChannel } from "../ciba";
import { mintSmsLink } from "../sms-link";
import type { NamedSubscriber } from "./resolve-subscriber";
import { backchannelSmsText } from "./sms-text";
import { BackchannelSlowDown } from "./slow-down";
import type { BackchannelParams } from "./validate-request";

/** Retry-After when the text message of the fallback could not be sent (503 temporarily_unavailable). */
export const SMS_FAILED_RETRY_AFTER = 30;

export interface CreatedBackchannelRequest {
  authReqId: string;
  expiresIn: number;
  /** For the audit log only (never in the response: it would tell whether the subscriber has a handset). */
  channel: BackchannelChannel;
  delivered: boolean;
}

/**
 * Stores a new backchannel request and puts it where the subscriber answers (docs/ciba.md):
 * - an active subscriber with an enrolled handset: a DeviceRequest on the handset (the out-of-band module,
 *   createDeviceRequest with `backchannel`), written in the same transaction as the BackchannelRequest;
 * - an active subscriber without one: the text-message fallback: a link and a 6-digit code (lib/ciba/sms-link.ts,
 *   stored as hashes), sent in one text message after the commit; if it cannot be sent, the request is deleted
 *   again and the client gets 503 `temporarily_unavailable` with Retry-After (it may retry; nothing is pending);
 * - a subscriber who is not active (suspended): stored exactly like a handset request but shown on no handset
 *   (DeviceRequest.subscriberId null), so it ends `expired`: neither the answer nor its statements say so.
 * The device look-up runs for every subscriber (an id that matches nothing when not active). The out-of-band limits
 * apply (per client and number, per number, per client; the pending ceilings): a refusal is 429 `slow_down`.
 * `auth_req_id` is minted here (mintToken) and only its SHA-256 is stored, as the BackchannelRequest's id.
 */
export async function createBackchannelRequest({ client, subscriber, request, loginHint, ip, userAgent }: {
  client: RegisteredClient; subscriber: NamedSubscriber; request: BackchannelParams; loginHint: string | null;
  ip: string; userAgent: string | null;
}): Promise<CreatedBackchannelRequest> {
  const active = subscriber.status === "active";
  const device = await db.device.findFirst({ where: { subscriberId: active ? subscriber.id : "", revokedAt: null },
    select: { id: true } });
  const channel: BackchannelChannel = !active || device ? "handset" : "sms";
  const authReq = mintToken();
  const requestId = authReq.hash;
  const expiresAt = new Date(Date.now() + request.expiresIn * 1000);
  const sms = channel === "sms" ? mintSmsLink({ requestId }) : null;
  const scope = request.scopes.join(" ");
  const created = await createDeviceRequest({
    flow: "ciba", backchannel: { requestId, channel, subscriberId: subscriber.id },
    numberKey: `msisdn:${subscriber.msisdn}`, subscriberId: active && device ? subscriber.id : null, client,
    text: { bindingMessage: request.bindingMessage, verified: true }, scope, acr: request.acr, expiresAt, ip, userAgent,
    prepare: (tx) => tx.backchannelRequest.create({
      data: { id: requestId, clientId: client.id, subscriberId: subscriber.id, scope, acr: request.acr,
        bindingMessage: request.bindingMessage, loginHint, deliveryMode: client.backchannelTokenDeliveryMode,
        notificationToken: request.notificationToken === null ? null
          : encryptAtRest(request.notificationToken, config().KEY_ENCRYPTION_SECRET),
        channel, linkHash: sms?.linkHash ?? null, codeHash: sms?.codeHash ?? null,
        interval: config().CIBA_POLL_INTERVAL, expiresAt },
      select: { id: true },
    }),
  });
  if (!created.ok) throw new BackchannelSlowDown(created.retryAfter);
  if (sms) {
    try {
      await getMessagingChannel().send({ msisdn: subscriber.msisdn, body: backchannelSmsText({
        locale: subscriber.locale, clientName: client.name, bindingMessage: request.bindingMessage, url: sms.url,
        code: sms.code }) });
    } catch (err) {
      logger.warn({ clientId: client.id, err: err instanceof Error ? err.message : "send failed" },
        "backchannel text message not sent; request withdrawn");
      await db.backchannelRequest.deleteMany({ where: { id: requestId, status: "pending" } });
      const unavailable = new TemporarilyUnavailable("the request cannot be delivered right now; retry later");
      unavailable.headers["Retry-After"] = String(SMS_FAILED_RETRY_AFTER);
      throw unavailable;
    }
  }
  return { authReqId: authReq.value, expiresIn: request.expiresIn, channel, delivered: active };
}
