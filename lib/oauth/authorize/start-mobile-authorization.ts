import type { RegisteredClient } from "../../clients/get-client";
import { createAuthorizationRequest } from "../../authorization-request/create-authorization-request";
import { newRequestId } from "../../authorization-request/request-id";
import { config } from "../../config";
import { createDeviceRequest } from "../../out-of-band/create-device-request";
import { deliverableSubscriber } from "../../out-of-band/deliverable-subscriber";
import { clientIp } from "../../http/client-ip";
import { browserIdHash, newBrowserCookie } from "../../sessions/browser-cookie";
import { InvalidRequest, TemporarilyUnavailable } from "../errors";
import { clientProvenance } from "../../clients/client-provenance";
import { mobileWaitingPage, waitingPageLanguages } from "./mobile-waiting-page";
import type { AuthorizationParams } from "./types";

/**
 * `prompt=mobile` (out-of-band authorization on the authorization device, the subscriber's
 * handset). Needs a subscriber named by a hint. Stores the authorization request and the handset
 * request in one transaction (lib/out-of-band/create-device-request.ts: limits, check code, audit),
 * then answers at once with the waiting page that shows the check code the subscriber must type on
 * the handset (number matching); that page reloads itself into /authorize/wait/{id}, which holds
 * until the handset answers and then redirects to the client like any authorization.
 *
 * Unknown, suspended and handset-less subscribers get exactly the same: the request is stored but
 * never shown on any handset, and the client learns `access_denied` when it expires, as for a
 * subscriber who did not answer. Nothing in the answer or its timing tells whether the number has a
 * handset.
 */
export async function startMobileAuthorization({ req, params, client, browserId }: {
  req: Request; params: AuthorizationParams; client: RegisteredClient; browserId: string | null;
}): Promise<Response> {
  const msisdn = params.hintedMsisdn;
  if (!msisdn) {
    throw new InvalidRequest("prompt=mobile requires login_hint, login_hint_token or id_token_hint naming the subscriber");
  }
  const deliverableTo = await deliverableSubscriber({ msisdn });

  const cookie = browserId ? null : newBrowserCookie();
  const id = newRequestId();
  const expiresAt = new Date(Date.now() + config().AUTH_REQUEST_TTL * 1000);
  const created = await createDeviceRequest({
    authorizationRequestId: id, numberKey: `msisdn:${msisdn}`, subscriberId: deliverableTo, client,
    text: { context: params.context, bindingMessage: params.bindingMessage, verified: params.clientAuthenticated === true },
    scope: params.scopes.join(" "), acr: params.acr, expiresAt, ip: clientIp(req.headers),
    userAgent: req.headers.get("user-agent"), flow: "prompt_mobile",
    prepare: (tx) => createAuthorizationRequest({ id, params, subscriberId: deliverableTo,
      browserIdHash: browserIdHash(browserId ?? cookie!.browserId), expiresAt, tx }),
  });
  if (!created.ok) {
    throw new TemporarilyUnavailable(created.reason === "too_many_pending"
      ? "Too many approval requests are waiting on the subscriber's handset; try again later"
      : `Too many approval requests for this subscriber; try again in ${created.retryAfter} seconds`);
  }
  const res = mobileWaitingPage({ requestId: id, checkCode: created.checkCode, clientName: client.name,
    mark: clientProvenance(client, params.redirectUri), expiresAt, languages: waitingPageLanguages(params, req) });
  if (cookie) res.headers.append("Set-Cookie", cookie.setCookie);
  return res;
}
