import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { rateLimitWindow } from "@/lib/security/hit-rate-limit";
import { createTestSubscriber } from "../../support/fixtures";
import { backchannelAuthenticate, createCibaClient, pollToken } from "../../support/ciba-support";
import { mapRange } from "../../support/network-support";
import { declarePurpose, FRAUD } from "../../support/camara-support";

/**
 * The ipport login hint (CAMARA) outside /authorize: CIBA approves at once when the network names an active
 * subscriber at acr 2 (no handset, no text message), and the JWT-bearer grant's `sub` = `ipport:…` gives a token
 * with amr nba. The client asserts the address and port it saw; the network (NetworkRange table) names the subscriber.
 * Only a client the operator allowed to name data sessions (Client.networkHintsAllowed) may, and CIBA approves
 * silently only a network-API-only scope (openid, API scopes, their purpose), within the silent-approval limits.
 */
const baseUrl = inject("baseUrl");
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const NV = "number-verification:verify";
const NV_SCOPE = `openid ${NV} ${FRAUD}`;

/** A CIBA client with the Number Verification scope and its purpose; allowed to name data sessions unless told. */
async function networkCibaClient({ networkHints = true, scopes = ["openid", NV, FRAUD] } = {}) {
  await declarePurpose(NV, FRAUD, "legitimate_interest");
  const client = await createCibaClient({ scopes });
  await db.client.update({ where: { id: client.id }, data: { networkHintsAllowed: networkHints } });
  return client;
}

describe("CIBA with login_hint=ipport", () => {
  it("is approved at once with amr nba: the poll gets tokens, the id_token says nba; nothing goes to a handset", async () => {
    const client = await networkCibaClient();
    const subscriber = await createTestSubscriber();
    await mapRange("198.51.100.0/24", subscriber.msisdn, "40000-40999");
    const res = await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: "ipport:198.51.100.7:40123",
      binding_message: "NBA-1" });
    expect(res.status, await res.clone().text()).toBe(200);
    const { auth_req_id: authReqId } = await res.json() as { auth_req_id: string };
    const row = await db.backchannelRequest.findUniqueOrThrow({ where: { id: sha256(authReqId) } });
    expect(row).toMatchObject({ status: "approved", amr: "nba", acr: "2", channel: "network", subscriberId: subscriber.id });
    expect(await db.deviceRequest.count({ where: { backchannelRequestId: row.id } })).toBe(0);
    const token = await pollToken(client, authReqId);
    expect(token.status).toBe(200);
    const body = await token.json() as { id_token: string; access_token: string };
    expect(decodeJwt(body.id_token).amr).toEqual(["nba"]);
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(body.access_token) } })).amr).toBe("nba");
  });

  it("IPv6 ipport; acr 3 goes on as any request; unknown is unknown_user_id; malformed is invalid_request", async () => {
    const client = await networkCibaClient();
    const subscriber = await createTestSubscriber();
    await mapRange("2001:db8:21::/48", subscriber.msisdn);
    const v6 = await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: "ipport:[2001:db8:21::5]:5000" });
    expect(v6.status).toBe(200);
    const v6Row = await db.backchannelRequest.findUniqueOrThrow({
      where: { id: sha256((await v6.json() as { auth_req_id: string }).auth_req_id) } });
    expect(v6Row.status).toBe("approved");
    const level3 = await backchannelAuthenticate(client, { scope: NV_SCOPE, acr_values: "3",
      login_hint: "ipport:[2001:db8:21::5]:5000" });
    expect(level3.status).toBe(200);
    const l3Row = await db.backchannelRequest.findUniqueOrThrow({
      where: { id: sha256((await level3.json() as { auth_req_id: string }).auth_req_id) } });
    expect(l3Row.status).toBe("pending");
    expect(l3Row.channel).not.toBe("network");
    const unknown = await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: "ipport:[2001:db8:22::5]:5000" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json() as { error: string }).error).toBe("unknown_user_id");
    const bad = await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: "ipport:2001:db8:21::5:5000" });
    expect((await bad.json() as { error: string }).error).toBe("invalid_request");
  });

  it("a client not allowed to name data sessions is unauthorized_client, before the network is asked", async () => {
    const client = await networkCibaClient({ networkHints: false });
    await db.client.update({ where: { id: client.id }, data: { registeredBy: "dynamic" } });
    const subscriber = await createTestSubscriber();
    await mapRange("198.51.101.0/24", subscriber.msisdn);
    const known = await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: "ipport:198.51.101.9:1000" });
    expect(known.status).toBe(400);
    expect((await known.json() as { error: string }).error).toBe("unauthorized_client");
    // The same answer whether or not the network knows the address: the client learns nothing about it.
    const unknown = await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: "ipport:198.51.201.9:1000" });
    expect((await unknown.json() as { error: string }).error).toBe("unauthorized_client");
    expect(await db.backchannelRequest.count({ where: { clientId: client.id } })).toBe(0);
  });

  it("a scope beyond openid + network APIs (openid phone profile) is not silent: it goes to the subscriber", async () => {
    const client = await networkCibaClient({ scopes: ["openid", "phone", "profile", NV, FRAUD] });
    const subscriber = await createTestSubscriber();
    await mapRange("198.51.102.0/24", subscriber.msisdn);
    for (const scope of ["openid phone profile", "openid", `openid phone ${NV} ${FRAUD}`]) {
      const res = await backchannelAuthenticate(client, { scope, login_hint: "ipport:198.51.102.9:1000" });
      expect(res.status, await res.clone().text()).toBe(200);
      const { auth_req_id: authReqId } = await res.json() as { auth_req_id: string };
      const row = await db.backchannelRequest.findUniqueOrThrow({ where: { id: sha256(authReqId) } });
      expect(row.status).toBe("pending");
      expect(row.channel).not.toBe("network");
      expect((await pollToken(client, authReqId)).status).toBe(400); // authorization_pending: no token
    }
  });

  it("silent approvals are limited per client and number (slow_down), in buckets of their own", async () => {
    const client = await networkCibaClient();
    const subscriber = await createTestSubscriber();
    await mapRange("198.51.103.0/24", subscriber.msisdn);
    const first = await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: "ipport:198.51.103.9:1000" });
    expect(first.status).toBe(200);
    // The test server's limits are relaxed: fill this client's bucket for the number (nba-client-num) as its own
    // silent approvals would (lib/security/hit-rate-limit.ts keys: name, keyed hash of the subject, window index).
    const { key } = rateLimitWindow({ name: "nba-client-num", limit: 0, windowSeconds: 15 * 60 },
      `${client.id} msisdn:${subscriber.msisdn}`, Date.now());
    await db.rateLimit.update({ where: { key }, data: { count: 1_000_000 } });
    const limited = await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: "ipport:198.51.103.9:1001" });
    expect(limited.status).toBe(429);
    expect((await limited.json() as { error: string }).error).toBe("slow_down");
    expect(await db.backchannelRequest.count({ where: { clientId: client.id } })).toBe(1);
    // Its own bucket: the out-of-band limits of the number are untouched (a request by number still goes out) and
    // another client of the operator still gets its own budget for the same number.
    expect((await backchannelAuthenticate(client, { scope: NV_SCOPE, login_hint: `tel:+${subscriber.msisdn}` })).status)
      .toBe(200);
    const other = await networkCibaClient();
    expect((await backchannelAuthenticate(other, { scope: NV_SCOPE, login_hint: "ipport:198.51.103.9:2000" })).status)
      .toBe(200);
  });
});

/** A JWT-bearer client (openid phone, consent-free) and a call of the grant with `sub`. */
async function jwtBearerClient({ networkHints }: { networkHints: boolean }) {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = `k-${randomToken(4)}`;
  const { client, clientSecret } = await createClient({
    name: `Nb${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-nb.example.test/cb"],
    scopes: ["openid", "phone"], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
    grantTypes: [JWT_BEARER], consentFreeScopes: ["openid", "phone"],
  });
  await db.client.update({ where: { id: client.id }, data: { networkHintsAllowed: networkHints } });
  return async (sub: string) => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({ iss: client.id, sub, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120,
      scope: "openid phone" }).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey);
    const res = await fetch(`${baseUrl}/token`, { method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${client.id}:${clientSecret}`).toString("base64")}` },
      body: new URLSearchParams({ grant_type: JWT_BEARER, assertion: jwt }) });
    return { status: res.status, body: await res.json() as Record<string, string> };
  };
}

describe("JWT-bearer with sub=ipport", () => {
  it("gives a token whose amr is nba; an ipport the network does not know is invalid_grant", async () => {
    const call = await jwtBearerClient({ networkHints: true });
    const subscriber = await createTestSubscriber();
    await mapRange("203.0.113.64/26", subscriber.msisdn);
    const ok = await call("ipport:203.0.113.70:6000");
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const row = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(ok.body.access_token!) } });
    expect(row).toMatchObject({ amr: "nba", subscriberId: subscriber.id });
    const byNumber = await call(`tel:+${subscriber.msisdn}`);
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(byNumber.body.access_token!) } })).amr)
      .toBeNull();
    expect((await call("ipport:203.0.113.1:6000")).body.error).toBe("invalid_grant");
    expect((await call("ipport:[203.0.113.70]:6000")).body.error).toBe("invalid_grant");
  });

  it("a client not allowed to name data sessions gets invalid_grant for an ipport sub (a number still works)", async () => {
    const call = await jwtBearerClient({ networkHints: false });
    const subscriber = await createTestSubscriber();
    await mapRange("203.0.113.128/26", subscriber.msisdn);
    const refused = await call("ipport:203.0.113.130:6000");
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_grant");
    expect((await call(`tel:+${subscriber.msisdn}`)).status).toBe(200);
  });
});
