import type { RegisteredClient } from "../../clients/get-client";
import { config } from "../../config";
import { db } from "../../db";
import { randomToken } from "../../crypto";
import { browserIdHash, newBrowserCookie } from "../../sessions/browser-cookie";
import { AccessDenied, InvalidRequest } from "../errors";
import { publishDeviceEvent } from "../../devices/device-events-bus";
import { awaitMobileAnswer } from "./await-mobile-answer";
import type { RedirectTarget } from "./redirect-to-client";
import type { AuthorizationParams } from "./types";

/**
 * One answer for unknown, suspended and handset-less subscribers. It tells the relying party that
 * this subscriber cannot approve on a handset, nothing more; the RP named the subscriber itself
 * (hint), and the ordinary flow without prompt=mobile stays open to it.
 */
const NO_DEVICE = "No authorization device is registered for this subscriber";

/**
 * `prompt=mobile` (out-of-band authorization on the authorization device, the subscriber's
 * handset): no screen on the consumption device. Needs a subscriber named by a hint; stores the
 * authorization request and the DeviceRequest the handset shows in one transaction, then holds
 * the response open until the handset answers (awaitMobileAnswer).
 */
export async function startMobileAuthorization({ params, client, browserId, target, signal }: {
  params: AuthorizationParams; client: RegisteredClient; browserId: string | null; target: RedirectTarget;
  signal?: AbortSignal;
}): Promise<Response> {
  if (!params.hintedMsisdn) {
    throw new InvalidRequest("prompt=mobile requires login_hint, login_hint_token or id_token_hint naming the subscriber");
  }
  const subscriber = await db.subscriber.findUnique({
    where: { msisdn: params.hintedMsisdn }, select: { id: true, status: true },
  });
  const device = subscriber?.status === "active"
    ? await db.device.findFirst({ where: { subscriberId: subscriber.id, revokedAt: null }, select: { id: true } })
    : null;
  if (!subscriber || !device) throw new AccessDenied(NO_DEVICE);

  const cookie = browserId ? null : newBrowserCookie();
  const id = randomToken(16);
  const deviceRequestId = randomToken(16);
  const expiresAt = new Date(Date.now() + config().AUTH_REQUEST_TTL * 1000);
  await db.$transaction([
    db.authorizationRequest.create({
      data: { id, clientId: client.id, params: JSON.stringify(params), subscriberId: subscriber.id,
        browserIdHash: browserIdHash(browserId ?? cookie!.browserId), expiresAt },
      select: { id: true },
    }),
    db.deviceRequest.create({
      data: { id: deviceRequestId, authorizationRequestId: id, subscriberId: subscriber.id,
        clientName: client.name, context: params.context ?? null, bindingMessage: params.bindingMessage ?? null,
        scope: params.scopes.join(" "), acr: params.acr, expiresAt },
      select: { id: true },
    }),
  ]);
  // The handset may be connected to another instance (lib/devices/device-events-bus.ts).
  publishDeviceEvent({ kind: "created", subscriberId: subscriber.id, requestId: deviceRequestId });
  const res = await awaitMobileAnswer({ requestId: id, deviceRequestId, params, client, target, expiresAt, signal });
  if (cookie) res.headers.append("Set-Cookie", cookie.setCookie);
  return res;
}
