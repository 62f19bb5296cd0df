import { db } from "@/lib/db";
import { mintToken } from "@/lib/tokens/mint-token";
import { randomToken } from "@/lib/crypto";
import { mintSmsLink } from "@/lib/ciba/sms-link";
import type { DeliveryMode } from "@/lib/ciba/ciba";

/**
 * A backchannel (CIBA) request written straight into the database, as /bc-authorize would leave it, so the
 * handset and text-message-link tests do not depend on the endpoint: the BackchannelRequest and, on the handset
 * channel, its DeviceRequest (checkCode "", attendedUntil = expiresAt, textVerified); on the sms channel, the link
 * and code (returned in clear, as the text message would carry them).
 */
export async function pendingBackchannelRequest(opts: {
  client: { id: string; name: string }; subscriber: { id: string }; acr?: "2" | "3"; channel?: "handset" | "sms";
  scope?: string; bindingMessage?: string; mode?: DeliveryMode; expiresInSeconds?: number;
}) {
  const { value: authReqId, hash: id } = mintToken();
  const expiresAt = new Date(Date.now() + (opts.expiresInSeconds ?? 300) * 1000);
  const channel = opts.channel ?? "handset";
  const scope = opts.scope ?? "openid";
  const acr = opts.acr ?? "2";
  const link = channel === "sms" ? mintSmsLink({ requestId: id }) : null;
  await db.backchannelRequest.create({ data: {
    id, clientId: opts.client.id, subscriberId: opts.subscriber.id, scope, acr,
    bindingMessage: opts.bindingMessage ?? null, deliveryMode: opts.mode ?? "poll", channel,
    linkHash: link?.linkHash ?? null, codeHash: link?.codeHash ?? null, interval: 5, expiresAt,
  } });
  const deviceRequest = channel === "handset" ? await db.deviceRequest.create({ data: {
    id: randomToken(16), backchannelRequestId: id, subscriberId: opts.subscriber.id, clientId: opts.client.id,
    clientName: opts.client.name, bindingMessage: opts.bindingMessage ?? null, textVerified: true, checkCode: "",
    attendedUntil: expiresAt, scope, acr, expiresAt,
  } }) : null;
  return { authReqId, id, expiresAt, deviceRequest, link };
}
