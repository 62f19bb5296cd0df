import { describe, expect, inject, it } from "vitest";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { basic, obtainTokens } from "../../support/codes";

const baseUrl = inject("baseUrl");
const jwks = createRemoteJWKSet(new URL(`${baseUrl}/jwks`));
type Client = Awaited<ReturnType<typeof createTestClient>>;

function refreshForm(client: Client, refreshToken: string, extra: Record<string, string> = {}) {
  return fetch(`${baseUrl}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(client.id, client.secret!) },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, ...extra }),
  });
}
function refreshJson(client: Client, refreshToken: string, extra: Record<string, string> = {}) {
  return fetch(`${baseUrl}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authentication: basic(client.id, client.secret!) },
    body: JSON.stringify({ grant_type: "refresh_token", refresh_token: refreshToken, ...extra }),
  });
}
async function expectError(res: Response, status: number, error: string) {
  const body = await res.json();
  expect({ status: res.status, error: body.error }, JSON.stringify(body)).toEqual({ status, error });
  expect(res.headers.get("cache-control")).toBe("no-store");
}
const premiumInfoStatus = async (token: string) =>
  (await fetch(`${baseUrl}/premiuminfo`, { headers: { Authorization: `Bearer ${token}` } })).status;

const SCOPE = "openid mc_identity_phonenumber offline_access";

describe("refresh_token grant", () => {
  it("rotates on every use, with form and JSON bodies, and issues a fresh id_token with the original authentication", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const authTime = new Date(Date.now() - 60_000);
    const first = await obtainTokens(baseUrl, client, subscriber, { scope: SCOPE, acr: "3", amr: "otp pin", authTime });

    const res1 = await refreshForm(client, first.refresh_token!);
    expect(res1.status).toBe(200);
    expect(res1.headers.get("cache-control")).toBe("no-store");
    const second = await res1.json();
    expect(second.refresh_token).toBeTypeOf("string");
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.token_type).toBe("bearer");
    expect(second.scope).toBe(SCOPE);
    expect(second.expires_in).toBeTypeOf("string");
    const { payload } = await jwtVerify(second.id_token, jwks, { issuer: baseUrl, audience: client.id });
    const original = (await jwtVerify(first.id_token, jwks)).payload;
    expect(payload.sub).toBe(original.sub);
    expect(payload.auth_time).toBe(Math.floor(authTime.getTime() / 1000));
    expect(payload.acr).toBe("3");
    expect(payload.amr).toEqual(["otp", "pin"]);
    expect(payload.nonce).toBeUndefined();

    const res2 = await refreshJson(client, second.refresh_token);
    expect(res2.status).toBe(200);
    const third = await res2.json();
    expect(await premiumInfoStatus(third.access_token)).toBe(200);
    // All three refresh tokens are one family.
    const rows = await db.refreshToken.findMany({
      where: { tokenHash: { in: [first, second, third].map((t) => sha256(t.refresh_token!)) } },
    });
    expect(new Set(rows.map((r) => r.familyId)).size).toBe(1);
    // The old access token keeps working until it expires (it was not reused).
    expect(await premiumInfoStatus(first.access_token)).toBe(200);
  });

  it("revokes the whole family when a used refresh token comes back", async () => {
    const client = await createTestClient();
    const first = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: SCOPE });
    const second = await (await refreshForm(client, first.refresh_token!)).json();

    await expectError(await refreshForm(client, first.refresh_token!), 400, "invalid_grant");
    // Everything of the family is dead now: the current refresh token and the access tokens.
    await expectError(await refreshForm(client, second.refresh_token), 400, "invalid_grant");
    expect(await premiumInfoStatus(second.access_token)).toBe(401);
    expect(await premiumInfoStatus(first.access_token)).toBe(401);
  });

  it("of two concurrent refreshes with one token exactly one succeeds", async () => {
    const client = await createTestClient();
    const tokens = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: SCOPE });
    const responses = await Promise.all([refreshForm(client, tokens.refresh_token!),
      refreshForm(client, tokens.refresh_token!)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("narrows scope but never widens it", async () => {
    const client = await createTestClient();
    const tokens = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: SCOPE });
    await expectError(await refreshForm(client, tokens.refresh_token!, { scope: "openid mc_identity_nationalid" }),
      400, "invalid_scope");
    await expectError(await refreshForm(client, tokens.refresh_token!, { scope: " " }), 400, "invalid_scope");
    // A refused request does not spend the token.
    const res = await refreshForm(client, tokens.refresh_token!, { scope: "openid" });
    expect(res.status).toBe(200);
    const narrowed = await res.json();
    expect(narrowed.scope).toBe("openid");
    expect(narrowed.id_token).toBeTypeOf("string");
    const pi = await fetch(`${baseUrl}/premiuminfo?token=${narrowed.access_token}`);
    expect(pi.status).toBe(401);
    expect((await pi.json()).error).toBe("access_denied");
    // The new refresh token keeps the original grant: the scope can be asked for again.
    const again = await (await refreshForm(client, narrowed.refresh_token)).json();
    expect(again.scope).toBe(SCOPE);
  });

  it("refuses another client's refresh token without revoking it", async () => {
    const owner = await createTestClient();
    const thief = await createTestClient();
    const tokens = await obtainTokens(baseUrl, owner, await createTestSubscriber(), { scope: SCOPE });
    await expectError(await refreshForm(thief, tokens.refresh_token!), 400, "invalid_grant");
    expect((await refreshForm(owner, tokens.refresh_token!)).status).toBe(200);
  });

  it("refuses unknown, expired and missing refresh tokens, and clients without offline_access", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await expectError(await refreshForm(client, "no-such-token"), 400, "invalid_grant");
    const tokens = await obtainTokens(baseUrl, client, subscriber, { scope: SCOPE });
    await db.refreshToken.update({ where: { tokenHash: sha256(tokens.refresh_token!) },
      data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectError(await refreshForm(client, tokens.refresh_token!), 400, "invalid_grant");
    await expectError(await refreshForm(client, ""), 400, "invalid_request");
    const limited = await createTestClient({ scopes: ["openid", "mc_identity_phonenumber"] });
    await expectError(await refreshForm(limited, "whatever"), 400, "unauthorized_client");
  });

  it("stops refreshing for a suspended subscriber", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const tokens = await obtainTokens(baseUrl, client, subscriber, { scope: SCOPE });
    await db.subscriber.update({ where: { id: subscriber.id }, data: { status: "suspended" } });
    await expectError(await refreshForm(client, tokens.refresh_token!), 400, "invalid_grant");
  });
});
