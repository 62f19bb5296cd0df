import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import * as oauth from "oauth4webapi";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";

export const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

export interface TestKey { alg: "ES256" | "PS256" | "RS256"; kid: string; privateKey: CryptoKey; jwk: JWK }

/** A key pair whose public JWK carries a kid and alg, as a relying party would publish it. */
export async function testKey(alg: TestKey["alg"]): Promise<TestKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `k-${randomToken(6)}`;
  return { alg, kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

const uniqueName = () => `KeyRp${randomToken(8).replace(/[^A-Za-z0-9]/g, "")}`;

/** A private_key_jwt client registered (as the admin CLI does) with its keys by value or by reference. */
export async function registerKeyClient(keys: { jwks?: TestKey[]; jwksUri?: string },
  redirectUri = "https://rp.example.test/callback") {
  const { client } = await createClient({
    name: uniqueName(), redirectUris: [redirectUri], scopes: [...SUPPORTED_SCOPES], authMethod: "private_key_jwt",
    ...(keys.jwks ? { jwks: { keys: keys.jwks.map((k) => k.jwk) } } : {}),
    ...(keys.jwksUri ? { jwksUri: keys.jwksUri } : {}),
  });
  return { id: client.id, redirectUri };
}

/** A client assertion (RFC 7523 §3); every claim and header may be overridden or removed (undefined). */
export async function assertion(key: TestKey, clientId: string, audience: string | string[],
  over: { header?: Record<string, unknown>; claims?: Record<string, unknown> } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { iss: clientId, sub: clientId, aud: audience, jti: randomToken(12),
    iat: now, exp: now + 60, ...over.claims };
  for (const [k, v] of Object.entries(claims)) if (v === undefined) delete claims[k];
  return new SignJWT(claims as never).setProtectedHeader({ alg: key.alg, kid: key.kid, ...over.header } as never)
    .sign(key.privateKey);
}

/** POSTs a form to an endpoint of the server and returns status and JSON body. */
export async function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: "POST", body: new URLSearchParams(form),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers } });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch { /* empty */ }
  return { status: res.status, body, headers: res.headers };
}

/**
 * A relying party's key server on 127.0.0.1: `/jwks` serves the current set (with `cacheControl`), `/slow`
 * never answers, `/big` sends 100 KiB, `/redirect` redirects to `/jwks`. Counts requests per path.
 */
export async function startJwksServer() {
  const state = { keys: [] as JWK[], cacheControl: "max-age=600", hits: new Map<string, number>() };
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    state.hits.set(path, (state.hits.get(path) ?? 0) + 1);
    if (path.startsWith("/jwks")) {
      res.writeHead(200, { "content-type": "application/jwk-set+json", "cache-control": state.cacheControl });
      res.end(JSON.stringify({ keys: state.keys }));
    } else if (path === "/big") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: state.keys, padding: "x".repeat(100 * 1024) }));
    } else if (path === "/redirect") {
      res.writeHead(302, { location: "/jwks" });
      res.end();
    } else if (path === "/slow") {
      // never answers
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base, state,
    hits: (path: string) => state.hits.get(path) ?? 0,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The whole flow with oauth4webapi and PrivateKeyJwt(key) against the server at baseUrl. */
export async function fullFlow(baseUrl: string, rp: { id: string; redirectUri: string }, key: TestKey) {
  const issuer = new URL(baseUrl);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
  expect(as.token_endpoint_auth_methods_supported).toContain("private_key_jwt");
  expect(as.token_endpoint_auth_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256"]);
  const c: oauth.Client = { client_id: rp.id };
  const clientAuth = oauth.PrivateKeyJwt({ key: key.privateKey, kid: key.kid });
  const subscriber = await createTestSubscriber();

  const codeVerifier = oauth.generateRandomCodeVerifier();
  const url = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries({ client_id: rp.id, redirect_uri: rp.redirectUri, response_type: "code",
    scope: "openid email offline_access mc_identity_phonenumber", code_challenge_method: "S256",
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier) })) url.searchParams.set(k, v);
  const { callbackUrl } = await signInAndConsent({ authorizationUrl: url.href, msisdn: subscriber.msisdn, pin: subscriber.pin });

  const params = oauth.validateAuthResponse(as, c, callbackUrl);
  const result = await oauth.processAuthorizationCodeResponse(as, c,
    await oauth.authorizationCodeGrantRequest(as, c, clientAuth, params, rp.redirectUri, codeVerifier, insecure),
    { requireIdToken: true });
  const claims = oauth.getValidatedIdTokenClaims(result)!;
  expect(claims).toMatchObject({ iss: as.issuer, aud: rp.id });

  const userInfo = await oauth.processUserInfoResponse(as, c, claims.sub,
    await oauth.userInfoRequest(as, c, result.access_token, insecure));
  expect(userInfo).toMatchObject({ sub: claims.sub, email: "alice@example.test" });
  const premium = await fetch(new URL("/premiuminfo", baseUrl), { headers: { authorization: `Bearer ${result.access_token}` } });
  expect(premium.status).toBe(200);
  expect(await premium.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

  const refreshed = await oauth.processRefreshTokenResponse(as, c,
    await oauth.refreshTokenGrantRequest(as, c, clientAuth, result.refresh_token!, insecure));
  expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(claims.sub);

  const active = await oauth.processIntrospectionResponse(as, c,
    await oauth.introspectionRequest(as, c, clientAuth, refreshed.access_token, insecure));
  expect(active).toMatchObject({ active: true, client_id: rp.id, sub: claims.sub });

  await oauth.processRevocationResponse(await oauth.revocationRequest(as, c, clientAuth, refreshed.refresh_token!, insecure));
  const revoked = await oauth.processIntrospectionResponse(as, c,
    await oauth.introspectionRequest(as, c, clientAuth, refreshed.refresh_token!, insecure));
  expect(revoked).toEqual({ active: false });
  // The refresh token's family is revoked with it, its access token too.
  await expect(oauth.processRefreshTokenResponse(as, c,
    await oauth.refreshTokenGrantRequest(as, c, clientAuth, refreshed.refresh_token!, insecure)))
    .rejects.toMatchObject({ error: "invalid_grant" });
}

