import { db } from "@/lib/db";
import { CIBA_GRANT_TYPE, type DeliveryMode } from "@/lib/ciba/ciba";
import { createTestClient } from "./fixtures";
import { baseUrl as sharedBaseUrl } from "./authorize-support";

/**
 * Helpers of the CIBA tests (lib/ciba, docs/ciba.md): a client registered for the CIBA grant, the three calls a
 * relying party makes (/bc-authorize, the token poll) and the handset's answer over HTTP.
 */

/** A confidential client allowed the CIBA grant with `mode` (poll by default); returns createTestClient's record. */
export async function createCibaClient(opts: {
  mode?: DeliveryMode; notificationEndpoint?: string; scopes?: string[]; signingAlg?: string; userCodeParameter?: boolean;
  expiresInFormat?: "timestamp" | "seconds";
} = {}) {
  const client = await createTestClient({ scopes: opts.scopes, expiresInFormat: opts.expiresInFormat });
  await db.client.update({ where: { id: client.id }, data: {
    grantTypes: `authorization_code refresh_token ${CIBA_GRANT_TYPE}`,
    backchannelTokenDeliveryMode: opts.mode ?? "poll",
    backchannelClientNotificationEndpoint: opts.notificationEndpoint ?? null,
    backchannelAuthRequestSigningAlg: opts.signingAlg ?? null,
    backchannelUserCodeParameter: opts.userCodeParameter ?? false,
  } });
  return client;
}

const basic = (client: { id: string; secret?: string }) =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret ?? "")}`).toString("base64")}`;

/** POST /bc-authorize with client_secret_basic and `params` as a form. */
export function backchannelAuthenticate(client: { id: string; secret?: string }, params: Record<string, string>,
  opts: { baseUrl?: string; headers?: Record<string, string> } = {}) {
  return fetch(`${opts.baseUrl ?? sharedBaseUrl}/bc-authorize`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(params),
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client), ...opts.headers },
  });
}

/** POST /token with the CIBA grant for `authReqId` (client_secret_basic). */
export function pollToken(client: { id: string; secret?: string }, authReqId: string,
  opts: { baseUrl?: string; headers?: Record<string, string> } = {}) {
  return fetch(`${opts.baseUrl ?? sharedBaseUrl}/token`, {
    method: "POST", redirect: "manual",
    body: new URLSearchParams({ grant_type: CIBA_GRANT_TYPE, auth_req_id: authReqId }),
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client), ...opts.headers },
  });
}

/** The handset's answer form (POST /handset/requests/{id}) with the device cookie, as the page submits it. */
export function answerOnHandset(deviceRequestId: string, cookie: string, fields: { decision: "approve" | "reject";
  pin?: string; check?: string }, opts: { baseUrl?: string } = {}) {
  const base = opts.baseUrl ?? sharedBaseUrl;
  const body: Record<string, string> = { decision: fields.decision };
  if (fields.pin !== undefined) body.pin = fields.pin;
  if (fields.check !== undefined) body.check = fields.check;
  return fetch(`${base}/handset/requests/${deviceRequestId}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(body),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base, cookie },
  });
}

/** The handset request of a backchannel request, once it is listed (by the request's auth_req_id hash). */
export async function handsetRequestOf(backchannelRequestId: string) {
  for (let i = 0; i < 100; i++) {
    const row = await db.deviceRequest.findUnique({ where: { backchannelRequestId } });
    if (row) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no handset request for this backchannel request");
}
