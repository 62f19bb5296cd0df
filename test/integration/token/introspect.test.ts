import { describe, expect, inject, it } from "vitest";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { db } from "@/lib/db";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { basic, obtainTokens } from "../../support/codes";

const baseUrl = inject("baseUrl");
const jwks = createRemoteJWKSet(new URL(`${baseUrl}/jwks`));
type Client = Awaited<ReturnType<typeof createTestClient>>;
const SCOPE = "openid mc_identity_phonenumber offline_access";

async function introspect(client: Client, params: Record<string, string>) {
  const res = await fetch(`${baseUrl}/introspect`, { method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(client.id, client.secret!) },
    body: new URLSearchParams(params) });
  expect(res.headers.get("cache-control")).toBe("no-store");
  return { status: res.status, body: await res.json() };
}

describe("introspection (RFC 7662)", () => {
  it("describes an active access token, with the pairwise sub of the token's client", async () => {
    const client = await createTestClient();
    const t = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: SCOPE });
    const { status, body } = await introspect(client, { token: t.access_token });
    expect(status).toBe(200);
    const { payload } = await jwtVerify(t.id_token, jwks);
    expect(body).toMatchObject({ active: true, scope: SCOPE, client_id: client.id, sub: payload.sub,
      token_type: "bearer", iss: baseUrl });
    expect(body.exp).toBe(Number(t.expires_in));
    expect(body.exp - body.iat).toBe(3600);
  });

  it("lets a resource server (another client) introspect access tokens, but not refresh tokens", async () => {
    const client = await createTestClient();
    const resourceServer = await createTestClient();
    const t = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: SCOPE });
    expect((await introspect(resourceServer, { token: t.access_token })).body).toMatchObject({ active: true,
      client_id: client.id });
    expect((await introspect(resourceServer, { token: t.refresh_token! })).body).toEqual({ active: false });
    const own = await introspect(client, { token: t.refresh_token!, token_type_hint: "refresh_token" });
    expect(own.body).toMatchObject({ active: true, client_id: client.id, scope: SCOPE });
    expect(own.body.token_type).toBeUndefined();
  });

  it("answers only {active:false} for unknown, revoked, expired and used tokens and suspended subscribers", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    expect((await introspect(client, { token: "nope" })).body).toEqual({ active: false });
    const t = await obtainTokens(baseUrl, client, subscriber, { scope: SCOPE });
    await fetch(`${baseUrl}/token`, { method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(client.id, client.secret!) },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: t.refresh_token! }) });
    expect((await introspect(client, { token: t.refresh_token! })).body).toEqual({ active: false });
    await fetch(`${baseUrl}/revoke`, { method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(client.id, client.secret!) },
      body: new URLSearchParams({ token: t.access_token }) });
    expect((await introspect(client, { token: t.access_token })).body).toEqual({ active: false });
    const s = await obtainTokens(baseUrl, client, subscriber, { scope: SCOPE });
    await db.subscriber.update({ where: { id: subscriber.id }, data: { status: "suspended" } });
    expect((await introspect(client, { token: s.access_token })).body).toEqual({ active: false });
  });

  it("requires client authentication and a token", async () => {
    const anonymous = await fetch(`${baseUrl}/introspect`, { method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "token=x" });
    expect(anonymous.status).toBe(401);
    const client = await createTestClient();
    const missing = await introspect(client, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_request");
  });
});
