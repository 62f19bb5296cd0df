import { expect } from "vitest";
import { EncryptJWT, SignJWT } from "jose";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { baseUrl, publicKeyOf, serverKey } from "../../support/authorize-support";
import { backchannelAuthenticate } from "../../support/ciba-support";

/** Helpers of the /bc-authorize tests (lib/ciba/handle-backchannel-authentication.ts). */

export type Json = Record<string, unknown>;

/** POST /bc-authorize (client_secret_basic); status, JSON body and headers. */
export async function bcAuthorize(client: { id: string; secret?: string }, params: Record<string, string>,
  opts: { baseUrl?: string; headers?: Record<string, string> } = {}) {
  const res = await backchannelAuthenticate(client, params, opts);
  const text = await res.text();
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch { /* not JSON */ }
  return { status: res.status, body, headers: res.headers };
}

/** Expects a 200 answer; returns the auth_req_id and the stored BackchannelRequest. */
export async function expectAccepted(r: Awaited<ReturnType<typeof bcAuthorize>>) {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.headers.get("cache-control")).toContain("no-store");
  const authReqId = r.body.auth_req_id as string;
  expect(authReqId).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  const row = await db.backchannelRequest.findUniqueOrThrow({ where: { id: sha256(authReqId) } });
  return { authReqId, row, body: r.body };
}

/** Expects an error answer with `status` and `error`. */
export function expectError(r: Awaited<ReturnType<typeof bcAuthorize>>, status: number, error: string) {
  expect({ status: r.status, error: r.body.error }, JSON.stringify(r.body)).toEqual({ status, error });
  expect(typeof r.body.error_description).toBe("string");
}

/** An id_token of ours (expired by default) naming `sub` for `aud`. */
export async function idTokenFor(sub: string, aud: string, exp = Math.floor(Date.now() / 1000) - 3600) {
  const key = await serverKey("sig");
  return new SignJWT({ iss: baseUrl, aud, sub, exp, iat: exp - 600 })
    .setProtectedHeader({ alg: "RS256", kid: key.kid }).sign(key.privateKey);
}

/** A login_hint_token (a JWE to our enc key) carrying `hint`, expiring at `exp`. */
export async function loginHintToken(hint: string, exp: string | number = "5m") {
  const key = await serverKey("enc");
  return new EncryptJWT({ login_hint: hint, aud: baseUrl })
    .setProtectedHeader({ alg: "RSA-OAEP-256", enc: "A256GCM", kid: key.kid })
    .setIssuedAt().setExpirationTime(exp).encrypt(publicKeyOf(key));
}

/** Gives an existing client the CIBA grant in `mode`. */
export async function allowCiba(clientId: string, opts: { mode?: "poll" | "ping" | "push"; signingAlg?: string } = {}) {
  await db.client.update({ where: { id: clientId }, data: {
    grantTypes: `authorization_code refresh_token ${CIBA_GRANT_TYPE}`,
    backchannelTokenDeliveryMode: opts.mode ?? "poll",
    backchannelClientNotificationEndpoint: opts.mode && opts.mode !== "poll" ? "https://rp.example.test/cb" : null,
    backchannelAuthRequestSigningAlg: opts.signingAlg ?? null,
  } });
}

/** The latest text message to `msisdn`, or null. */
export const latestMessage = (msisdn: string) =>
  db.message.findFirst({ where: { msisdn }, orderBy: { createdAt: "desc" } });

/** The latest audit events of `clientId` of type backchannel_requested, newest first. */
export const backchannelAudit = (clientId: string) =>
  db.auditEvent.findMany({ where: { clientId, type: "backchannel_requested" }, orderBy: { id: "desc" } });

export { baseUrl };
