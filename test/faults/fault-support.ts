import { randomUUID } from "node:crypto";
import { PrismaClient } from "@prisma/client";
import { createAdapter } from "@/lib/db";
import { hashSecret, randomToken, sha256 } from "@/lib/crypto";

/** What the fault tests need in their own database: a client, a subscriber, signed-in browsers with consent. */
export interface FlowFixture {
  clientId: string;
  basic: string;
  redirectUri: string;
  cookies: string[];
  scope: string;
}

export const FLOW_SCOPE = "openid mc_identity_phonenumber offline_access";

/** A Prisma client on another test server's database (the shared `db` points at the integration server's). */
export function prismaFor(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: createAdapter(databaseUrl) });
}

/**
 * A confidential client, one subscriber, `browsers` signed-in browsers (Session rows bound to
 * sha256 of the cookie, acr 2) and the remembered consent (Grant): /authorize answers a code at once.
 */
export async function createFlowFixture(prisma: PrismaClient, browsers: number): Promise<FlowFixture> {
  const clientId = `fault-${randomToken(9)}`;
  const secret = randomToken(32);
  const redirectUri = "https://rp.faults.test/cb";
  await prisma.client.create({ data: {
    id: clientId, name: "FaultApp", secretHash: await hashSecret(secret), redirectUris: JSON.stringify([redirectUri]),
    allowedScopes: FLOW_SCOPE, sectorIdentifier: "rp.faults.test", expiresInFormat: "seconds",
  } });
  const subscriberId = randomUUID();
  await prisma.subscriber.create({ data: {
    id: subscriberId, msisdn: `44770090${String(Date.now() % 10_000).padStart(4, "0")}`, status: "active",
    pinHash: await hashSecret("2468"), givenName: "Fay", familyName: "Ult",
  } });
  await prisma.grant.create({ data: { id: randomUUID(), subscriberId, clientId, scope: FLOW_SCOPE } });
  const cookies: string[] = [];
  for (let i = 0; i < browsers; i++) {
    const browserId = randomToken(32);
    await prisma.session.create({ data: {
      id: randomToken(16), browserIdHash: sha256(browserId), subscriberId, authTime: new Date(), acr: "2",
      amr: "otp sms", expiresAt: new Date(Date.now() + 3600_000),
    } });
    cookies.push(`op_browser=${browserId}`);
  }
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;
  return { clientId, basic, redirectUri, cookies, scope: FLOW_SCOPE };
}

/** GET /authorize with a signed-in browser; the code from the redirect, or an Error with the answer. */
export async function authorizeCode(baseUrl: string, f: FlowFixture, cookie: string): Promise<string> {
  const state = randomToken(8);
  const q = new URLSearchParams({ response_type: "code", client_id: f.clientId, redirect_uri: f.redirectUri,
    scope: f.scope, acr_values: "2", state, nonce: randomToken(8) });
  const res = await fetch(`${baseUrl}/authorize?${q}`, { redirect: "manual", headers: { cookie } });
  const location = res.headers.get("location") ?? "";
  const code = location.startsWith(f.redirectUri) ? new URL(location).searchParams.get("code") : null;
  if (res.status !== 302 || !code) throw new Error(`authorize: ${res.status} ${location || (await res.text()).slice(0, 200)}`);
  return code;
}

/** POST /token (Basic client authentication); the JSON body with the status. */
export async function tokenRequest(baseUrl: string, f: FlowFixture, form: Record<string, string>) {
  const res = await fetch(`${baseUrl}/token`, {
    method: "POST", body: new URLSearchParams(form),
    headers: { authorization: f.basic, "content-type": "application/x-www-form-urlencoded" },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
}

/** GET /premiuminfo with a bearer access token. */
export async function premiumInfo(baseUrl: string, accessToken: string) {
  const res = await fetch(`${baseUrl}/premiuminfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}
