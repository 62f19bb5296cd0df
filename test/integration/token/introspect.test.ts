import { describe, expect, inject, it } from "vitest";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
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

/** A client the registration endpoint would have created (registeredBy "dynamic", RFC 7591). */
async function dynamicClient(): Promise<Client> {
  const redirectUri = "https://self.example.test/cb";
  const { client, clientSecret } = await createClient({ name: `Dyn${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`,
    redirectUris: [redirectUri], scopes: SCOPE.split(" "), registeredBy: "dynamic" });
  return { id: client.id, secret: clientSecret!, name: client.name, redirectUri };
}

/** A client_credentials token of an operator's service client (docs/grants.md). */
async function serviceToken() {
  const { client, clientSecret } = await createClient({ name: `Svc${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`,
    redirectUris: ["https://svc.example.test/cb"], scopes: ["openid"], grantTypes: ["client_credentials"],
    clientCredentialsScopes: ["introspection"] });
  const res = await fetch(`${baseUrl}/token`, { method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(client.id, clientSecret!) },
    body: new URLSearchParams({ grant_type: "client_credentials", scope: "introspection" }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
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

  it("tells a dynamically registered client only about its own tokens: another client's are {active:false}", async () => {
    const selfRegistered = await dynamicClient();
    const subscriber = await createTestSubscriber();
    const other = await createTestClient();
    const theirs = await obtainTokens(baseUrl, other, subscriber, { scope: SCOPE });
    expect((await introspect(selfRegistered, { token: theirs.access_token })).body).toEqual({ active: false });
    expect((await introspect(selfRegistered, { token: theirs.access_token, token_type_hint: "access_token" })).body)
      .toEqual({ active: false });
    expect((await introspect(selfRegistered, { token: theirs.refresh_token! })).body).toEqual({ active: false });
    expect((await introspect(selfRegistered, { token: await serviceToken() })).body).toEqual({ active: false });
    // The same tokens are still described to their own client.
    expect((await introspect(other, { token: theirs.access_token })).body).toMatchObject({ active: true,
      client_id: other.id });
  });

  it("describes a dynamically registered client's own tokens to it, and to the operator's resource servers", async () => {
    const selfRegistered = await dynamicClient();
    const t = await obtainTokens(baseUrl, selfRegistered, await createTestSubscriber(), { scope: SCOPE });
    const { payload } = await jwtVerify(t.id_token, jwks);
    const own = await introspect(selfRegistered, { token: t.access_token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ active: true, client_id: selfRegistered.id, sub: payload.sub, scope: SCOPE });
    expect((await introspect(selfRegistered, { token: t.refresh_token! })).body).toMatchObject({ active: true,
      client_id: selfRegistered.id });
    const resourceServer = await createTestClient();
    expect((await introspect(resourceServer, { token: t.access_token })).body).toMatchObject({ active: true,
      client_id: selfRegistered.id, sub: payload.sub });
  });

  it("tells a public client (client_id alone, which anyone can send) nothing about another client's token", async () => {
    const publicClient = await createTestClient({ isPublic: true });
    const other = await createTestClient();
    const theirs = await obtainTokens(baseUrl, other, await createTestSubscriber(), { scope: SCOPE });
    const res = await fetch(`${baseUrl}/introspect`, { method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: publicClient.id, token: theirs.access_token }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ active: false });
    expect((await introspect(other, { token: theirs.access_token })).body).toMatchObject({ active: true });
  });
});
