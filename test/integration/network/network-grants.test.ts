import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { createTestSubscriber } from "../../support/fixtures";
import { backchannelAuthenticate, createCibaClient, pollToken } from "../../support/ciba-support";
import { mapRange } from "../../support/network-support";

/**
 * The ipport login hint (CAMARA) outside /authorize: CIBA approves at once when the network names an active
 * subscriber at acr 2 (no handset, no text message), and the JWT-bearer grant's `sub` = `ipport:…` gives a token
 * with amr nba. The client asserts the address and port it saw; the network (NetworkRange table) names the subscriber.
 */
const baseUrl = inject("baseUrl");
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

describe("CIBA with login_hint=ipport", () => {
  it("is approved at once with amr nba: the poll gets tokens, the id_token says nba; nothing goes to a handset", async () => {
    const client = await createCibaClient();
    const subscriber = await createTestSubscriber();
    await mapRange("198.51.100.0/24", subscriber.msisdn, "40000-40999");
    const res = await backchannelAuthenticate(client, { scope: "openid", login_hint: "ipport:198.51.100.7:40123",
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
    const client = await createCibaClient();
    const subscriber = await createTestSubscriber();
    await mapRange("2001:db8:21::/48", subscriber.msisdn);
    const v6 = await backchannelAuthenticate(client, { scope: "openid", login_hint: "ipport:[2001:db8:21::5]:5000" });
    expect(v6.status).toBe(200);
    const v6Row = await db.backchannelRequest.findUniqueOrThrow({
      where: { id: sha256((await v6.json() as { auth_req_id: string }).auth_req_id) } });
    expect(v6Row.status).toBe("approved");
    const level3 = await backchannelAuthenticate(client, { scope: "openid", acr_values: "3",
      login_hint: "ipport:[2001:db8:21::5]:5000" });
    expect(level3.status).toBe(200);
    const l3Row = await db.backchannelRequest.findUniqueOrThrow({
      where: { id: sha256((await level3.json() as { auth_req_id: string }).auth_req_id) } });
    expect(l3Row.status).toBe("pending");
    expect(l3Row.channel).not.toBe("network");
    const unknown = await backchannelAuthenticate(client, { scope: "openid", login_hint: "ipport:[2001:db8:22::5]:5000" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json() as { error: string }).error).toBe("unknown_user_id");
    const bad = await backchannelAuthenticate(client, { scope: "openid", login_hint: "ipport:2001:db8:21::5:5000" });
    expect((await bad.json() as { error: string }).error).toBe("invalid_request");
  });
});

describe("JWT-bearer with sub=ipport", () => {
  it("gives a token whose amr is nba; an ipport the network does not know is invalid_grant", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = `k-${randomToken(4)}`;
    const { client, clientSecret } = await createClient({
      name: `Nb${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-nb.example.test/cb"],
      scopes: ["openid", "phone"], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
      grantTypes: [JWT_BEARER], consentFreeScopes: ["openid", "phone"],
    });
    const subscriber = await createTestSubscriber();
    await mapRange("203.0.113.64/26", subscriber.msisdn);
    const call = async (sub: string) => {
      const now = Math.floor(Date.now() / 1000);
      const jwt = await new SignJWT({ iss: client.id, sub, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120,
        scope: "openid phone" }).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey);
      const res = await fetch(`${baseUrl}/token`, { method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from(`${client.id}:${clientSecret}`).toString("base64")}` },
        body: new URLSearchParams({ grant_type: JWT_BEARER, assertion: jwt }) });
      return { status: res.status, body: await res.json() as Record<string, string> };
    };
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
});
