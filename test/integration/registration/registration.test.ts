import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as client from "openid-client";
import { exportJWK, generateKeyPair } from "jose";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { createClient } from "@/lib/clients/create-client";
import { ownSector } from "@/lib/clients/own-sector";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { createInitialAccessToken } from "@/lib/registration/initial-access-tokens";
import { createTestSubscriber } from "@/test/support/fixtures";
import { signInAndConsent } from "@/test/support/browserless";

/**
 * Dynamic client registration (RFC 7591, RFC 7592, OpenID Connect Registration; docs/registration.md) over
 * HTTP, on a server of its own with the production settings (registration closed without an initial access
 * token, no private addresses) except the per-address limit, lifted for the parallel registrations.
 */
let server: RunningServer;
let baseUrl = "";
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  server = await startServer({ name: "registration", env: { REGISTRATION_LIMIT_PER_IP: "100000" } });
  baseUrl = server.baseUrl;
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

type Json = Record<string, unknown>;
const RP = "https://rp.example.test";
const minimal = (extra: Json = {}): Json => ({ redirect_uris: [`${RP}/callback`], ...extra });

async function newToken(uses = 1, ttlSeconds = 3600) {
  return (await createInitialAccessToken({ uses, ttlSeconds, label: "test" })).token;
}

async function register(body: unknown, token: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}/register`, {
    method: "POST", body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
}

/** A registration that must fail with `error`; the one-use token it used is still usable afterwards. */
async function refused(body: unknown, error: string, description?: RegExp) {
  const token = await newToken();
  const r = await register(body, token);
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error).toBe(error);
  if (description) expect(r.body.error_description).toMatch(description);
  expect(r.headers.get("cache-control")).toBe("no-store");
  return r.body;
}

/** The operator's call-centre client of the demo data (lib/demo/seed-demo-data.ts), registered once. */
async function demoCallCentre() {
  if (await db.client.findFirst({ where: { name: "DemoCallCentre" } })) return;
  await createClient({ name: "DemoCallCentre", redirectUris: ["https://callcentre.example.test/cb"], scopes: ["openid"] });
}

async function configuration(method: string, uri: string, token: string | null, body?: Json) {
  const res = await fetch(uri, {
    method, ...(body ? { body: JSON.stringify(body) } : {}),
    headers: { ...(body ? { "content-type": "application/json" } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
}

describe("the registration endpoint in the metadata", () => {
  it("advertises registration_endpoint at /register", async () => {
    const meta = (await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json()) as Json;
    expect(meta.registration_endpoint).toBe(`${baseUrl}/register`);
  });
});

describe("initial access tokens (401 invalid_token with a Bearer challenge)", () => {
  const expect401 = (r: { status: number; headers: Headers; body: Json }, description: RegExp) => {
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("invalid_token");
    expect(r.body.error_description).toMatch(description);
    expect(r.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
  };

  it("refuses a registration without a token (open registration is off by default)", async () => {
    expect401(await register(minimal(), null), /initial access token is required/);
  });

  it("refuses an unknown token, a non-Bearer Authorization and a token that is not a token", async () => {
    expect401(await register(minimal(), "not-a-real-token"), /unknown, used up or expired/);
    expect401(await register(minimal(), null, { authorization: `Basic ${btoa("a:b")}` }), /must be Bearer/);
    expect401(await register(minimal(), null, { authorization: "Bearer a b" }), /must be Bearer/);
  });

  it("a one-use token registers one client, then is used up", async () => {
    const token = await newToken();
    expect((await register(minimal(), token)).status).toBe(201);
    expect401(await register(minimal(), token), /used up/);
    expect(await db.initialAccessToken.findUnique({ where: { tokenHash: sha256(token) } })).toMatchObject({ usesLeft: 0 });
  });

  it("refuses an expired token and a revoked one", async () => {
    const expired = await newToken(5);
    await db.initialAccessToken.update({ where: { tokenHash: sha256(expired) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect401(await register(minimal(), expired), /expired/);
    const revoked = await newToken(5);
    await db.initialAccessToken.delete({ where: { tokenHash: sha256(revoked) } });
    expect401(await register(minimal(), revoked), /unknown/);
  });

  it("a refused body does not spend the use: the same one-use token registers once the body is right", async () => {
    const token = await newToken();
    expect((await register({ redirect_uris: ["http://rp.example.test/cb"] }, token)).status).toBe(400);
    expect((await register(minimal(), token)).status).toBe(201);
  });

  it("fifty parallel registrations with a one-use token create exactly one client", async () => {
    const token = await newToken(1);
    const name = `Parallel${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 50 }, () => register(minimal({ client_name: name }), token)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(49);
    expect(await db.client.count({ where: { name: { startsWith: name } } })).toBe(1);
    expect(await db.initialAccessToken.findUnique({ where: { tokenHash: sha256(token) } })).toMatchObject({ usesLeft: 0 });
  });

  it("twenty parallel registrations with a three-use token create exactly three clients", async () => {
    const token = await newToken(3);
    const name = `Triple${Date.now()}`;
    // Twenty different names (a name another client holds is refused, issue 33): only the token limits them.
    const letters = "abcdefghijkmnpqrstuvwxyz";
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      register(minimal({ client_name: `${name}${letters[i]}` }), token)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 401)).toHaveLength(17);
    const names = results.filter((r) => r.status === 201).map((r) => r.body.client_name as string);
    expect(new Set(names).size).toBe(3);
    for (const n of names) expect(n.startsWith(name)).toBe(true);
  });
});

describe("POST /register: a client is registered (201)", () => {
  it("answers the client information: id, secret once, registration access token and URI, the metadata", async () => {
    const r = await register(minimal({
      client_name: `Acme${Date.now()}`, scope: "openid email", post_logout_redirect_uris: [`${RP}/bye`],
      grant_types: ["authorization_code", "refresh_token"], backchannel_logout_uri: `${RP}/backchannel`,
      backchannel_logout_session_required: true, frontchannel_logout_uri: `${RP}/frontchannel`,
      client_profile: "mobile-connect", id_token_signed_response_alg: "RS256", logo_uri: `${RP}/logo.png`,
    }), await newToken());
    expect(r.status).toBe(201);
    expect(r.headers.get("cache-control")).toBe("no-store");
    const b = r.body;
    expect(b).toMatchObject({
      client_secret_expires_at: 0, redirect_uris: [`${RP}/callback`], post_logout_redirect_uris: [`${RP}/bye`],
      token_endpoint_auth_method: "client_secret_basic", grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"], scope: "openid email", subject_type: "pairwise", id_token_signed_response_alg: "RS256",
      backchannel_logout_uri: `${RP}/backchannel`, backchannel_logout_session_required: true,
      frontchannel_logout_uri: `${RP}/frontchannel`, frontchannel_logout_session_required: false,
      client_profile: "mobile-connect", require_signed_request_object: false, dpop_bound_access_tokens: false,
    });
    expect(b.logo_uri).toBeUndefined(); // not stored, so not registered
    expect(b.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.registration_access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.registration_client_uri).toBe(`${baseUrl}/register/${b.client_id}`);
    expect(Math.abs((b.client_id_issued_at as number) - Date.now() / 1000)).toBeLessThan(60);
    const row = await db.client.findUniqueOrThrow({ where: { id: b.client_id as string } });
    expect(row).toMatchObject({ registeredBy: "dynamic", registrationAccessTokenHash: sha256(b.registration_access_token as string),
      sectorIdentifier: ownSector(b.client_id as string), profile: "mobile-connect", expiresInFormat: "timestamp" });
    expect(row.secretHash).not.toContain(b.client_secret as string);
  });

  it("names a client that gave no client_name (client-xxxxxxxx) and says so in client_name", async () => {
    const a = await register(minimal(), await newToken());
    expect(a.status).toBe(201);
    expect(a.body.client_name).toMatch(/^client-[A-Za-z0-9_-]{8}$/);
    const b = await register(minimal(), await newToken());
    expect(b.body.client_name).toMatch(/^client-[A-Za-z0-9_-]{8}$/);
    expect(b.body.client_name).not.toBe(a.body.client_name);
  });

  it("refuses another client's exact name like a lookalike, never registering a suffixed near-copy (issue 33)",
    async () => {
      const name = `Taken${Date.now()}`;
      expect((await register(minimal({ client_name: name }), await newToken())).body.client_name).toBe(name);
      const body = await refused(minimal({ client_name: name }), "invalid_client_metadata",
        /looks like the name of another client: names are compared without case, spaces or punctuation/);
      expect(body.error_description).toContain(`client_name "${name}"`);
      await demoCallCentre();
      await refused(minimal({ client_name: "DemoCallCentre" }), "invalid_client_metadata", /looks like the name/);
      expect(await db.client.count({ where: { name: { startsWith: name } } })).toBe(1);
      expect(await db.client.count({ where: { name: { startsWith: "DemoCallCentre-" } } })).toBe(0);
    });

  it("refuses a client_name that looks like another client's (DemoCaIlCentre beside the demo's DemoCallCentre)", async () => {
    await demoCallCentre();
    for (const name of ["DemoCaIlCentre", "demo call centre", "Dem0-Ca11-Centre", "DEMOCALLCENTRE", "Y0ur Account"]) {
      const body = await refused(minimal({ client_name: name }), "invalid_client_metadata",
        /looks like the name of another client: names are compared without case, spaces or punctuation/);
      expect(body.error_description).toContain(`client_name "${name}"`);
    }
    expect(await db.client.count({ where: { name: { in: ["DemoCaIlCentre", "Dem0-Ca11-Centre"] } } })).toBe(0);
  });

  it("registers a public client (none: no secret, PKCE) and a private_key_jwt client with its keys (no secret)", async () => {
    const pub = await register(minimal({ token_endpoint_auth_method: "none" }), await newToken());
    expect(pub.status).toBe(201);
    expect(pub.body).toMatchObject({ token_endpoint_auth_method: "none" });
    expect(pub.body.client_secret).toBeUndefined();
    expect(pub.body.client_secret_expires_at).toBeUndefined();
    expect(await db.client.findUnique({ where: { id: pub.body.client_id as string } })).toMatchObject({ isPublic: true });

    const { publicKey } = await generateKeyPair("ES256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", use: "sig" };
    const pkj = await register(minimal({ token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [jwk] },
      require_signed_request_object: true, require_pushed_authorization_requests: true, dpop_bound_access_tokens: true }),
    await newToken());
    expect(pkj.status, JSON.stringify(pkj.body)).toBe(201);
    expect(pkj.body).toMatchObject({ token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [jwk] },
      require_signed_request_object: true, require_pushed_authorization_requests: true, dpop_bound_access_tokens: true });
    expect(pkj.body.client_secret).toBeUndefined();
  });
});

describe("POST /register: invalid_redirect_uri (RFC 7591 §3.2.2)", () => {
  it.each([
    ["no redirect_uris", {}, /at least one redirect URI/],
    ["an empty list", { redirect_uris: [] }, /at least one redirect URI/],
    ["not an array", { redirect_uris: `${RP}/cb` }, /array of strings/],
    ["http on a public host", { redirect_uris: ["http://rp.example.test/cb"] }, /must use https/],
    ["a fragment", { redirect_uris: [`${RP}/cb#x`] }, /fragment/],
    ["a wildcard", { redirect_uris: ["https://*.example.test/cb"] }, /wildcards/],
    ["credentials", { redirect_uris: ["https://u:p@rp.example.test/cb"] }, /credentials/],
    ["a relative URI", { redirect_uris: ["/cb"] }, /not an absolute URI/],
    ["javascript:", { redirect_uris: ["javascript:alert(1)"] }, /must use https/],
  ])("refuses %s", async (_, body, description) => {
    await refused(body, "invalid_redirect_uri", description);
  });
});

describe("POST /register: invalid_client_metadata (RFC 7591 §3.2.2), with the admin validators' messages", () => {
  it.each([
    ["a client_name outside the rule", { client_name: "<script>" }, /client name must be 1-64 characters/],
    ["a client_name that is not a string", { client_name: 7 }, /client_name must be a string/],
    ["an unknown scope", { scope: "openid admin" }, /unknown scope admin/],
    ["a scope without openid", { scope: "email" }, /must include openid/],
    ["response_types token", { response_types: ["token"] }, /response_types must be \["code"\]/],
    ["grant type client_credentials", { grant_types: ["authorization_code", "client_credentials"] }, /client_credentials cannot be registered/],
    ["grant_types without authorization_code", { grant_types: ["refresh_token"] }, /must include authorization_code/],
    ["id_token_signed_response_alg HS256", { id_token_signed_response_alg: "HS256" }, /must be one of RS256, PS256, ES256, EdDSA/],
    ["id_token_signed_response_alg none", { id_token_signed_response_alg: "none" }, /unsigned ID tokens are not issued/],
    ["subject_type public", { subject_type: "public" }, /pairwise/],
    ["an unknown auth method", { token_endpoint_auth_method: "tls_client_auth" }, /token endpoint auth method must be one of/],
    ["private_key_jwt without keys", { token_endpoint_auth_method: "private_key_jwt" }, /needs the client's public keys/],
    ["jwks that is not a key set", { jwks: [1, 2] }, /jwks must be a JSON Web Key Set/],
    ["a private key in jwks", { jwks: { keys: [{ kty: "EC", crv: "P-256", x: "a", y: "b", d: "c" }] } }, /private or symmetric/],
    ["a symmetric key in jwks", { jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } }, /private or symmetric/],
    ["both jwks and jwks_uri", { jwks: { keys: [] }, jwks_uri: "https://rp.example.test/jwks" }, /jwks/],
    ["an unknown client_profile", { client_profile: "lax" }, /profile must be one of oidc, mobile-connect/],
    ["encrypted ID tokens", { id_token_encrypted_response_alg: "RSA-OAEP" }, /not supported/],
    ["signed userinfo", { userinfo_signed_response_alg: "RS256" }, /not supported/],
    ["a client_secret chosen by the client", { client_secret: "mine" }, /client_secret is issued by the server/],
    ["a client_id chosen by the client", { client_id: "mine" }, /client_id is issued by the server/],
    ["a boolean that is a string", { dpop_bound_access_tokens: "yes" }, /must be true or false/],
    ["a post-logout URI over http", { post_logout_redirect_uris: ["http://rp.example.test/bye"] }, /post-logout redirect URI .* https/],
  ])("refuses %s", async (_, extra, description) => {
    const body = "redirect_uris" in extra ? extra : minimal(extra as Json);
    await refused(body, "invalid_client_metadata", description);
  });

  it("refuses a body that is not JSON, not an object, or not application/json", async () => {
    await refused("{not json", "invalid_client_metadata", /not valid JSON/);
    await refused([minimal()], "invalid_client_metadata", /JSON object/);
    const token = await newToken();
    const form = await register("redirect_uris=x", token, { "content-type": "application/x-www-form-urlencoded" });
    expect(form).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
  });

  it("refuses an oversized body with 413", async () => {
    const r = await register(minimal({ client_uri: "x".repeat(20_000) }), await newToken());
    expect(r.status).toBe(413);
  });
});

describe("the scopes the operator allows (REGISTRATION_SCOPES, here its default)", () => {
  const NATIONAL_ID = /scope mc_identity_nationalid cannot be registered on this server/;

  it("refuses the national identifier scope at POST /register, naming it; no client is created", async () => {
    const name = `NationalId${Date.now()}`;
    const body = await refused(minimal({ client_name: name, scope: "openid mc_identity_nationalid" }),
      "invalid_client_metadata", NATIONAL_ID);
    expect(body.error_description).not.toMatch(/allowed: .*mc_identity_nationalid/);
    expect(await db.client.findFirst({ where: { name } })).toBeNull();
  });

  it("refuses it at PUT /register/{client_id} too; the registration keeps its scopes", async () => {
    const r = await register(minimal({ scope: "openid phone" }), await newToken());
    expect(r.status).toBe(201);
    const { client_id: clientId, registration_client_uri: uri, registration_access_token: token } =
      r.body as { client_id: string; registration_client_uri: string; registration_access_token: string };
    const put = await configuration("PUT", uri, token,
      { client_id: clientId, redirect_uris: [`${RP}/callback`], scope: "openid phone mc_identity_nationalid" });
    expect(put.status).toBe(400);
    expect(put.body.error).toBe("invalid_client_metadata");
    expect(put.body.error_description).toMatch(NATIONAL_ID);
    expect((await configuration("GET", uri, token)).body).toMatchObject({ scope: "openid phone" });
  });

  it("allows every other supported scope; a registration without scope gets openid alone", async () => {
    const others = SUPPORTED_SCOPES.filter((s) => s !== "mc_identity_nationalid").join(" ");
    const all = await register(minimal({ scope: others }), await newToken());
    expect(all.status, JSON.stringify(all.body)).toBe(201);
    expect(all.body.scope).toBe(others);
    const none = await register(minimal(), await newToken());
    expect(none.status).toBe(201);
    expect(none.body.scope).toBe("openid");
    expect((await db.client.findUniqueOrThrow({ where: { id: none.body.client_id as string } })).allowedScopes).toBe("openid");
  });
});

describe("hostile URIs: nothing the server fetches or POSTs to may point into its own network", () => {
  const internal = ["https://127.0.0.1/logout", "http://127.0.0.1:3000/logout", "https://[::1]/logout", "https://10.0.0.5/logout",
    "https://169.254.169.254/latest/meta-data", "https://192.168.1.1/logout", "https://172.16.0.1/x", "https://100.64.0.1/x",
    "https://[::ffff:127.0.0.1]/x", "https://[fd00::1]/x", "https://localhost/logout", "https://metadata.internal/x",
    "https://0.0.0.0/x", "https://intranet/x"];

  it.each(internal)("refuses backchannel_logout_uri %s", async (uri) => {
    await refused(minimal({ backchannel_logout_uri: uri }), "invalid_client_metadata",
      /backchannel_logout_uri .* (loopback, private or reserved|must use https)/);
  });

  it("refuses internal front-channel logout, jwks_uri and sector_identifier_uri addresses", async () => {
    await refused(minimal({ frontchannel_logout_uri: "https://10.1.2.3/fc" }), "invalid_client_metadata", /frontchannel_logout_uri .* private/);
    await refused(minimal({ token_endpoint_auth_method: "private_key_jwt", jwks_uri: "https://192.168.0.10/jwks" }),
      "invalid_client_metadata", /jwks_uri .* private/);
    await refused(minimal({ sector_identifier_uri: "https://127.0.0.1/sector.json" }), "invalid_client_metadata", /private/);
    await refused(minimal({ sector_identifier_uri: "https://[::1]:8443/s.json" }), "invalid_client_metadata", /private/);
  });

  it("refuses a sector_identifier_uri that is not https, and one that cannot be fetched", async () => {
    await refused(minimal({ sector_identifier_uri: "http://rp.example.test/s.json" }), "invalid_client_metadata", /must use https/);
    await refused(minimal({ sector_identifier_uri: "https://rp.example.test/s.json" }), "invalid_client_metadata",
      /could not be read/);
  });
});

describe("RFC 7592: the client configuration endpoint", () => {
  async function registered(extra: Json = {}) {
    const r = await register(minimal({ client_name: `Conf${Date.now()}${Math.random().toString(36).slice(2, 6)}`, ...extra }),
      await newToken());
    expect(r.status).toBe(201);
    return r.body as Json & { client_id: string; registration_access_token: string; registration_client_uri: string };
  }

  it("GET reads the registration (no secret; the presented token echoed, not rotated)", async () => {
    const c = await registered({ scope: "openid phone" });
    const r = await configuration("GET", c.registration_client_uri, c.registration_access_token);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toMatchObject({ client_id: c.client_id, client_name: c.client_name, scope: "openid phone",
      registration_access_token: c.registration_access_token, registration_client_uri: c.registration_client_uri,
      client_secret_expires_at: 0 });
    expect(r.body.client_secret).toBeUndefined();
  });

  it("PUT refuses a client_name that looks like another client's; a respelling of its own name is fine", async () => {
    const c = await registered();
    const other = await registered();
    const put = (client_name: string) => configuration("PUT", c.registration_client_uri, c.registration_access_token,
      { client_id: c.client_id, redirect_uris: [`${RP}/callback`], client_name });
    const lookalike = (other.client_name as string).toUpperCase().replace(/-/g, " ");
    expect(await put(lookalike)).toMatchObject({ status: 400, body: { error: "invalid_client_metadata",
      error_description: expect.stringMatching(/looks like the name of another client/) } });
    await demoCallCentre();
    expect(await put("DemoCaIlCentre")).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
    const own = (c.client_name as string).toLowerCase();
    expect(await put(own)).toMatchObject({ status: 200, body: { client_name: own } });
  });

  it("a wrong token, no token, an unknown client and an operator-registered client get the same 401", async () => {
    const c = await registered();
    const { client: admin } = await createClient({ name: `Admin${Date.now()}`, redirectUris: [`${RP}/cb`], scopes: ["openid"] });
    const answers = [
      await configuration("GET", c.registration_client_uri, "wrong-token"),
      await configuration("GET", `${baseUrl}/register/unknown-client`, c.registration_access_token),
      await configuration("GET", `${baseUrl}/register/${admin.id}`, c.registration_access_token),
      await configuration("PUT", c.registration_client_uri, "wrong-token", { client_id: c.client_id, redirect_uris: [`${RP}/x`] }),
      await configuration("DELETE", c.registration_client_uri, "wrong-token"),
    ];
    for (const r of answers) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "invalid_token", error_description: "the registration access token is not valid for this client" });
      expect(r.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
    }
    const none = await configuration("GET", c.registration_client_uri, null);
    expect(none.status).toBe(401);
    // Another client's registration access token is not this one's.
    const other = await registered();
    expect((await configuration("GET", c.registration_client_uri, other.registration_access_token)).status).toBe(401);
    expect(await db.client.findUnique({ where: { id: c.client_id } })).not.toBeNull();
  });

  it("PUT replaces the metadata, validated as at registration; the token stays the same", async () => {
    const c = await registered({ grant_types: ["authorization_code", "refresh_token"], post_logout_redirect_uris: [`${RP}/bye`] });
    const next = { client_id: c.client_id, redirect_uris: [`${RP}/callback2`], client_name: `${c.client_name as string}v2`,
      scope: "openid email", frontchannel_logout_uri: `${RP}/fc`, client_secret: undefined };
    const r = await configuration("PUT", c.registration_client_uri, c.registration_access_token, next);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ client_id: c.client_id, redirect_uris: [`${RP}/callback2`], client_name: next.client_name,
      scope: "openid email", grant_types: ["authorization_code"], post_logout_redirect_uris: [],
      frontchannel_logout_uri: `${RP}/fc`, registration_access_token: c.registration_access_token });
    const row = await db.client.findUniqueOrThrow({ where: { id: c.client_id } });
    expect(JSON.parse(row.redirectUris)).toEqual([`${RP}/callback2`]);
    expect((await configuration("GET", c.registration_client_uri, c.registration_access_token)).body)
      .toMatchObject({ client_name: next.client_name });

    // The same client_secret may be repeated; it cannot be chosen.
    const same = await configuration("PUT", c.registration_client_uri, c.registration_access_token,
      { ...next, client_secret: c.client_secret });
    expect(same.status).toBe(200);
    const chosen = await configuration("PUT", c.registration_client_uri, c.registration_access_token,
      { ...next, client_secret: "my-own-secret" });
    expect(chosen).toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
  });

  it("a sector of its own (issue 33): redirect URIs on several hosts need no sector_identifier_uri, PUT moves them freely",
    async () => {
      const c = await registered({ redirect_uris: [`${RP}/cb`, "https://other.example.test/cb"] });
      const put = (body: Json) => configuration("PUT", c.registration_client_uri, c.registration_access_token, body);
      expect((await put({ client_id: c.client_id, redirect_uris: ["https://elsewhere.example.test/cb"] })).status).toBe(200);
      expect(await db.client.findUniqueOrThrow({ where: { id: c.client_id } }))
        .toMatchObject({ sectorIdentifier: ownSector(c.client_id), redirectUris: JSON.stringify(["https://elsewhere.example.test/cb"]) });
    });

  it("a host sector of a client registered before own sectors: kept by PUT, on that host only, never with CIBA", async () => {
    const c = await registered({ redirect_uris: [`${RP}/cb`] });
    await db.client.update({ where: { id: c.client_id }, data: { sectorIdentifier: "rp.example.test" } });
    const put = (body: Json) => configuration("PUT", c.registration_client_uri, c.registration_access_token, body);
    expect((await put({ client_id: c.client_id, redirect_uris: [`${RP}/other`] })).status).toBe(200);
    expect(await put({ client_id: c.client_id, redirect_uris: ["https://elsewhere.example.test/cb"] }))
      .toMatchObject({ status: 400, body: { error_description: expect.stringMatching(/pairwise sector cannot change/) } });
    expect(await put({ client_id: c.client_id, redirect_uris: [`${RP}/cb`], backchannel_token_delivery_mode: "poll",
      grant_types: ["authorization_code", "urn:openid:params:grant-type:ciba"] }))
      .toMatchObject({ status: 400, body: { error_description: expect.stringMatching(/needs a sector of the client's own/) } });
    expect((await db.client.findUniqueOrThrow({ where: { id: c.client_id } })).sectorIdentifier).toBe("rp.example.test");
  });

  it("PUT refuses what a registration refuses, a missing client_id, a change of authentication kind", async () => {
    const c = await registered();
    const put = (body: Json) => configuration("PUT", c.registration_client_uri, c.registration_access_token, body);
    expect(await put({ client_id: c.client_id, redirect_uris: ["http://rp.example.test/cb"] }))
      .toMatchObject({ status: 400, body: { error: "invalid_redirect_uri" } });
    expect(await put({ client_id: c.client_id, redirect_uris: [`${RP}/cb`], backchannel_logout_uri: "https://10.0.0.1/bc" }))
      .toMatchObject({ status: 400, body: { error: "invalid_client_metadata" } });
    expect(await put({ redirect_uris: [`${RP}/cb`] }))
      .toMatchObject({ status: 400, body: { error: "invalid_client_metadata", error_description: expect.stringMatching(/client_id/) } });
    expect(await put({ client_id: c.client_id, redirect_uris: [`${RP}/cb`], token_endpoint_auth_method: "none" }))
      .toMatchObject({ status: 400, body: { error_description: expect.stringMatching(/cannot change from client secret to none/) } });
    const taken = await registered();
    expect(await put({ client_id: c.client_id, redirect_uris: [`${RP}/cb`], client_name: taken.client_name }))
      .toMatchObject({ status: 400, body: { error: "invalid_client_metadata",
        error_description: expect.stringMatching(/looks like the name of another client/) } });
    expect(JSON.parse((await db.client.findUniqueOrThrow({ where: { id: c.client_id } })).redirectUris)).toEqual([`${RP}/callback`]);
  });

  it("DELETE removes the client like `client delete` (204): tokens revoked, the configuration endpoint answers 401", async () => {
    const c = await registered();
    const subscriber = await createTestSubscriber();
    await db.accessToken.create({ data: { tokenHash: sha256(`at-${c.client_id}`), clientId: c.client_id,
      subscriberId: subscriber.id, scope: "openid", expiresAt: new Date(Date.now() + 3_600_000) } });
    const r = await configuration("DELETE", c.registration_client_uri, c.registration_access_token);
    expect(r.status).toBe(204);
    expect(await db.client.findUnique({ where: { id: c.client_id } })).toBeNull();
    expect(await db.accessToken.count({ where: { clientId: c.client_id, revokedAt: null } })).toBe(0);
    expect((await configuration("GET", c.registration_client_uri, c.registration_access_token)).status).toBe(401);
    expect((await configuration("DELETE", c.registration_client_uri, c.registration_access_token)).status).toBe(401);
  });
});

describe("a relying-party module that supports dynamic registration registers itself and signs in", () => {
  it("openid-client v6: dynamicClientRegistration with an initial access token, then its default code flow and userinfo", async () => {
    const token = await newToken();
    const redirectUri = `${RP}/callback`;
    const config = await client.dynamicClientRegistration(new URL(baseUrl), {
      redirect_uris: [redirectUri], client_name: `OpenIdClient${Date.now()}`, scope: "openid email offline_access",
      grant_types: ["authorization_code", "refresh_token"],
    }, undefined, { initialAccessToken: token, execute: [client.allowInsecureRequests] });
    const metadata = config.clientMetadata();
    expect(metadata.client_id).toBeTruthy();
    expect(metadata.client_secret).toBeTruthy();
    expect(metadata.registration_access_token).toBeTruthy();

    const subscriber = await createTestSubscriber();
    const codeVerifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri, scope: "openid email offline_access",
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256",
    });
    const { callbackUrl } = await signInAndConsent({ authorizationUrl: url.href, msisdn: subscriber.msisdn, pin: subscriber.pin });
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: codeVerifier });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: baseUrl, aud: metadata.client_id });
    const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userInfo).toMatchObject({ sub: claims.sub, email: "alice@example.test" });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.claims()?.sub).toBe(claims.sub);
  });
});

describe("admin CLI: registration token create / list / revoke", () => {
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  const run = (...args: string[]) => new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args], {
      cwd: root, env: { ...process.env, DATABASE_URL: server.databaseUrl },
    }, (err, stdout) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout }));
  });

  it("prints a token once, stores its SHA-256, lists it without the token and revokes it", async () => {
    const created = await run("--json", "registration", "token", "create", "--uses", "2", "--ttl", "2h", "--label", "Acme");
    expect(created.code).toBe(0);
    const out = JSON.parse(created.stdout) as { initial_access_token: string; token: { id: string; uses_left: number; status: string } };
    expect(out.token).toMatchObject({ id: sha256(out.initial_access_token), uses_left: 2, status: "active" });
    const row = await db.initialAccessToken.findUniqueOrThrow({ where: { tokenHash: sha256(out.initial_access_token) } });
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(7100_000);
    expect(JSON.stringify(row)).not.toContain(out.initial_access_token);

    expect((await register(minimal(), out.initial_access_token)).status).toBe(201);
    const list = await run("--json", "registration", "token", "list");
    expect(list.stdout).not.toContain(out.initial_access_token);
    const listed = (JSON.parse(list.stdout) as { tokens: Array<{ id: string; uses_left: number; label: string }> }).tokens;
    expect(listed.find((t) => t.id === out.token.id)).toMatchObject({ uses_left: 1, label: "Acme" });

    expect((await run("--json", "registration", "token", "revoke", "--", out.token.id)).code).toBe(0);
    expect((await register(minimal(), out.initial_access_token)).status).toBe(401);
    expect(await db.auditEvent.count({ where: { type: { in: ["admin_registration_token_create", "admin_registration_token_revoke"] } } }))
      .toBeGreaterThanOrEqual(2);

    expect(JSON.parse((await run("--json", "registration", "token", "create", "--uses", "0")).stdout))
      .toEqual({ error: "--uses must be an integer from 1 to 1000000" });
    expect((await run("--json", "registration", "token", "revoke", "--", "nope")).code).toBe(1);
  });
});
