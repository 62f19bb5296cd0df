import { describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { db } from "@/lib/db";
import { createTestClient } from "../../support/fixtures";

/**
 * The client_credentials grant (RFC 6749 §4.4, docs/grants.md) over HTTP: per-client grant types, the
 * client-credential scopes, the token's life at introspection and revocation, and its refusal at the resources
 * that need a subscriber.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const name = () => `Cc${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;

async function serviceClient(options: { grantTypes?: string[]; clientCredentialsScopes?: string[] } = {}) {
  const { client, clientSecret } = await createClient({
    name: name(), redirectUris: ["https://rp.example.test/cb"], scopes: ["openid"],
    grantTypes: options.grantTypes ?? ["client_credentials"],
    clientCredentialsScopes: options.clientCredentialsScopes ?? ["introspection"],
  });
  return { id: client.id, secret: clientSecret! };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function post(path: string, body: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) as Record<string, unknown> : {} };
}

async function discover() {
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
}

describe("client_credentials", () => {
  it("is advertised with the JWT-bearer grant in grant_types_supported", async () => {
    const as = await discover();
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(
      ["authorization_code", "refresh_token", "client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"]));
  });

  it("oauth4webapi: clientCredentialsGrantRequest gets a bearer token with no id_token or refresh token", async () => {
    const rp = await serviceClient();
    const as = await discover();
    const res = await oauth.clientCredentialsGrantRequest(as, { client_id: rp.id }, oauth.ClientSecretBasic(rp.secret),
      { scope: "introspection" }, insecure);
    const tokens = await oauth.processClientCredentialsResponse(as, { client_id: rp.id }, res);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("introspection");
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();
    const audit = await db.auditEvent.findMany({ where: { clientId: rp.id, type: "token_issued" } });
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.detail!)).toMatchObject({ grant: "client_credentials", scope: "introspection" });
    expect(audit[0]!.subscriberRef).toBeNull();
  });

  it("a plain POST (client_secret_post) without scope gets all of the client's client-credential scopes", async () => {
    const rp = await serviceClient();
    const res = await post("/token", { grant_type: "client_credentials", client_id: rp.id, client_secret: rp.secret });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.body).toMatchObject({ token_type: "bearer", scope: "introspection", expires_in: 3600 });
    expect(Object.keys(res.body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
  });

  it("introspection describes it without sub; revocation ends it; only its client may revoke it", async () => {
    const rp = await serviceClient();
    const other = await serviceClient();
    const auth = { authorization: basic(rp.id, rp.secret) };
    const { body } = await post("/token", { grant_type: "client_credentials", scope: "introspection" }, auth);
    const token = body.access_token as string;

    const as = await discover();
    const intro = await oauth.processIntrospectionResponse(as, { client_id: other.id },
      await oauth.introspectionRequest(as, { client_id: other.id }, oauth.ClientSecretBasic(other.secret), token, insecure));
    expect(intro).toMatchObject({ active: true, client_id: rp.id, scope: "introspection", token_type: "bearer", iss: baseUrl });
    expect(intro.sub).toBeUndefined();
    expect((intro.exp as number) - Math.floor(Date.now() / 1000)).toBeGreaterThan(3500);

    // RFC 7662 §2.1: the token itself (scope introspection) may authorize an introspection call.
    const byBearer = await post("/introspect", { token }, { authorization: `Bearer ${token}` });
    expect(byBearer.status).toBe(200);
    expect(byBearer.body).toMatchObject({ active: true, client_id: rp.id });

    // Another client may not revoke it (RFC 7009 §2.1), and the token stays active.
    const foreign = await post("/revoke", { token }, { authorization: basic(other.id, other.secret) });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe("invalid_request");

    const revoked = await oauth.revocationRequest(as, { client_id: rp.id }, oauth.ClientSecretBasic(rp.secret), token, insecure);
    await oauth.processRevocationResponse(revoked);
    const after = await post("/introspect", { token }, { authorization: basic(other.id, other.secret) });
    expect(after.body).toEqual({ active: false });
    const deadBearer = await post("/introspect", { token }, { authorization: `Bearer ${token}` });
    expect(deadBearer.status).toBe(401);
    expect(deadBearer.body.error).toBe("invalid_token");
    expect(deadBearer.headers.get("www-authenticate")).toMatch(/^Bearer .*error="invalid_token"/);
    const audit = await db.auditEvent.findMany({ where: { clientId: rp.id, type: "token_revoked" } });
    expect(audit).toHaveLength(1);
  });

  it("is refused at /userinfo and /premiuminfo with invalid_token: it names no subscriber", async () => {
    const rp = await serviceClient();
    const { body } = await post("/token", { grant_type: "client_credentials" }, { authorization: basic(rp.id, rp.secret) });
    for (const path of ["/userinfo", "/premiuminfo"]) {
      const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${body.access_token as string}` } });
      expect(res.status, path).toBe(401);
      expect(res.headers.get("www-authenticate"), path).toMatch(/error="invalid_token"/);
    }
  });

  it("a client not registered for the grant is unauthorized_client (and the default clients are not)", async () => {
    const rp = await serviceClient({ grantTypes: ["authorization_code"] });
    const res = await post("/token", { grant_type: "client_credentials" }, { authorization: basic(rp.id, rp.secret) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("unauthorized_client");
    const legacy = await createTestClient();
    const old = await post("/token", { grant_type: "client_credentials" }, { authorization: basic(legacy.id, legacy.secret!) });
    expect(old.body.error).toBe("unauthorized_client");
    // A code client may not use refresh_token if not registered for it either.
    const codeOnly = await post("/token", { grant_type: "refresh_token", refresh_token: "x" },
      { authorization: basic(rp.id, rp.secret) });
    expect(codeOnly.body.error).toBe("unauthorized_client");
    const unknown = await post("/token", { grant_type: "password" }, { authorization: basic(rp.id, rp.secret) });
    expect(unknown.body.error).toBe("unsupported_grant_type");
  });

  it("scopes outside the client's list, subscriber scopes and openid are invalid_scope", async () => {
    const rp = await serviceClient();
    const auth = { authorization: basic(rp.id, rp.secret) };
    for (const scope of ["openid", "introspection openid", "profile", "mc_identity_phonenumber", "offline_access", " "]) {
      const res = await post("/token", { grant_type: "client_credentials", scope }, auth);
      expect(res.status, scope).toBe(400);
      expect(res.body.error, scope).toBe("invalid_scope");
    }
    const none = await serviceClient({ clientCredentialsScopes: [] });
    const empty = await post("/token", { grant_type: "client_credentials" }, { authorization: basic(none.id, none.secret) });
    expect(empty.body.error).toBe("invalid_scope");
    await expect(serviceClient({ clientCredentialsScopes: ["profile"] })).rejects.toThrow(/unknown scope profile/);
  });

  it("a public client registered for it is still refused, and a wrong secret is invalid_client", async () => {
    const { client } = await createClient({ name: name(), redirectUris: ["https://rp.example.test/cb"], scopes: ["openid"],
      isPublic: true, grantTypes: ["client_credentials"], clientCredentialsScopes: ["introspection"] });
    const pub = await post("/token", { grant_type: "client_credentials", client_id: client.id });
    expect(pub.body.error).toBe("unauthorized_client");
    const rp = await serviceClient();
    const bad = await post("/token", { grant_type: "client_credentials" }, { authorization: basic(rp.id, "wrong") });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe("invalid_client");
  });
});
