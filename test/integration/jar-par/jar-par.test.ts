import { beforeAll, describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { createClient } from "@/lib/clients/create-client";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";
import { expectErrorPage, expectInteraction } from "../../support/authorize-support";

/**
 * Signed request objects (RFC 9101) and pushed authorization requests (RFC 9126) at our endpoints, with
 * oauth4webapi building the requests as its README shows (issueRequestObject, pushedAuthorizationRequest)
 * and the subscriber signing in on our screens (test/support/browserless.ts). Then every refusal: the
 * object's signature, aud, iss, expiry, replay; request + request_uri; a pushed request_uri reused,
 * expired, another client's, or used fifty times at once; a private request_uri; the per-client rules.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REDIRECT = "https://rp.example.test/callback";
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
});

type Alg = "ES256" | "RS256" | "PS256";

/** A confidential client (secret for the token and PAR endpoints) with one public key for its request objects. */
async function keyClient({
  alg = "ES256", requireSignedRequestObject, requirePushedAuthorizationRequests, moreRedirectUris = [],
}: {
  alg?: Alg; requireSignedRequestObject?: boolean; requirePushedAuthorizationRequests?: boolean; moreRedirectUris?: string[];
} = {}) {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `k-${randomToken(4)}`;
  const name = `Jar${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;
  const { client, clientSecret } = await createClient({ name, redirectUris: [REDIRECT, ...moreRedirectUris],
    sectorIdentifier: "rp.example.test",
    scopes: [...SUPPORTED_SCOPES], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg, use: "sig" }] },
    requireSignedRequestObject, requirePushedAuthorizationRequests });
  return { id: client.id, secret: clientSecret!, c: { client_id: client.id } as oauth.Client,
    auth: oauth.ClientSecretBasic(clientSecret!), key: { key: privateKey, kid } as oauth.PrivateKey, alg };
}
type Rp = Awaited<ReturnType<typeof keyClient>>;

/** An authorization request's parameters (PKCE S256, state, nonce) and what the RP keeps to check the answer. */
async function authorizationParameters(extra: Record<string, string> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const parameters = new URLSearchParams({ redirect_uri: REDIRECT, response_type: "code", scope: "openid mc_identity_phonenumber",
    state, nonce, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", ...extra });
  return { parameters, verifier, state, nonce };
}

function authorizationUrl(query: Record<string, string>): URL {
  const url = new URL(as.authorization_endpoint!);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url;
}

/** The subscriber signs in and consents; the RP checks the answer, redeems the code and reads premium info. */
async function completeFlow(rp: Rp, url: URL, expected: { verifier: string; state: string; nonce: string }) {
  const subscriber = await createTestSubscriber();
  const { callbackUrl } = await signInAndConsent({ authorizationUrl: url.href, msisdn: subscriber.msisdn, pin: subscriber.pin });
  const params = oauth.validateAuthResponse(as, rp.c, callbackUrl, expected.state);
  const response = await oauth.authorizationCodeGrantRequest(as, rp.c, rp.auth, params, REDIRECT, expected.verifier, insecure);
  const result = await oauth.processAuthorizationCodeResponse(as, rp.c, response,
    { expectedNonce: expected.nonce, requireIdToken: true });
  const claims = oauth.getValidatedIdTokenClaims(result)!;
  expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id, nonce: expected.nonce });
  const info = await fetch(new URL("/premiuminfo", baseUrl), { headers: { authorization: `Bearer ${result.access_token}` } });
  expect(await info.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });
}

/** Pushes `parameters` with the client's secret (oauth4webapi); returns the request_uri. */
async function push(rp: Rp, parameters: URLSearchParams) {
  const res = await oauth.pushedAuthorizationRequest(as, rp.c, rp.auth, parameters, insecure);
  const { request_uri, expires_in } = await oauth.processPushedAuthorizationResponse(as, rp.c, res);
  expect(request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/);
  expect(expires_in).toBe(60);
  return request_uri;
}

/** A request object signed with jose directly, for the claims oauth4webapi would never write. */
async function signObject(rp: Rp, claims: JWTPayload,
  { key = rp.key.key, kid = rp.key.kid, alg = rp.alg as string, typ = "oauth-authz-req+jwt" as unknown } = {}) {
  return new SignJWT(claims).setProtectedHeader({ alg, kid, typ: typ as string }).sign(key);
}

async function objectClaims(rp: Rp, overrides: JWTPayload = {}) {
  const { parameters } = await authorizationParameters();
  const now = Math.floor(Date.now() / 1000);
  return { ...Object.fromEntries(parameters), client_id: rp.id, iss: rp.id, aud: baseUrl, iat: now, nbf: now,
    exp: now + 300, jti: randomToken(12), ...overrides };
}

const get = (url: URL | string) => fetch(url, { redirect: "manual" });

async function expectPageError(res: Response, error: string) {
  const html = await expectErrorPage(res);
  expect(html).toContain(error);
  return html;
}

function expectRedirectError(res: Response, error: string) {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get("location")!);
  expect(location.href.startsWith(`${REDIRECT}?`)).toBe(true);
  expect(location.searchParams.get("error")).toBe(error);
  return location.searchParams.get("error_description");
}

describe("metadata", () => {
  it("advertises request objects and pushed requests", () => {
    expect(as).toMatchObject({
      request_parameter_supported: true, request_uri_parameter_supported: true, require_request_uri_registration: false,
      request_object_signing_alg_values_supported: ["RS256", "PS256", "ES256", "HS256"],
      pushed_authorization_request_endpoint: `${baseUrl}/par`, require_pushed_authorization_requests: false,
    });
  });
});

describe("full flows with oauth4webapi", () => {
  it("a signed request object by value (ES256, issueRequestObject); the query's own parameters are not used", async () => {
    const rp = await keyClient();
    const { parameters, ...expected } = await authorizationParameters();
    const request = await oauth.issueRequestObject(as, rp.c, parameters, rp.key);
    // RFC 9101 §5: only the object counts; a scope the client may not have in the query changes nothing.
    await completeFlow(rp, authorizationUrl({ client_id: rp.id, request, scope: "openid not_a_scope" }), expected);
  });

  it.each(["RS256", "PS256"] as const)("a signed request object by value (%s)", async (alg) => {
    const rp = await keyClient({ alg });
    const { parameters, ...expected } = await authorizationParameters();
    const request = await oauth.issueRequestObject(as, rp.c, parameters, rp.key);
    await completeFlow(rp, authorizationUrl({ client_id: rp.id, request }), expected);
  });

  it("a pushed authorization request (pushedAuthorizationRequest, client_secret_basic)", async () => {
    const rp = await keyClient();
    const { parameters, ...expected } = await authorizationParameters();
    const requestUri = await push(rp, parameters);
    await completeFlow(rp, authorizationUrl({ client_id: rp.id, request_uri: requestUri }), expected);
  });

  it("a pushed signed request object", async () => {
    const rp = await keyClient({ alg: "PS256" });
    const { parameters, ...expected } = await authorizationParameters();
    const request = await oauth.issueRequestObject(as, rp.c, parameters, rp.key);
    const requestUri = await push(rp, new URLSearchParams({ request }));
    await completeFlow(rp, authorizationUrl({ client_id: rp.id, request_uri: requestUri }), expected);
  });

  it("HS256 keyed by the client secret (OpenID Connect Core §6.1), from a client without keys", async () => {
    const name = `JarHmac${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`;
    const { client, clientSecret } = await createClient({ name, redirectUris: [REDIRECT], scopes: [...SUPPORTED_SCOPES] });
    const rp = { id: client.id, secret: clientSecret!, c: { client_id: client.id }, auth: oauth.ClientSecretBasic(clientSecret!),
      key: undefined as never, alg: "HS256" } as unknown as Rp;
    const { parameters, ...expected } = await authorizationParameters();
    const now = Math.floor(Date.now() / 1000);
    const request = await new SignJWT({ ...Object.fromEntries(parameters), client_id: rp.id, iss: rp.id, aud: baseUrl,
      iat: now, exp: now + 120, jti: randomToken(12) })
      .setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(rp.secret));
    await completeFlow(rp, authorizationUrl({ client_id: rp.id, request }), expected);
  });

  it("a verified request object marks the request's texts as the client's own (the handset shows them as verified)", async () => {
    const rp = await keyClient();
    const { parameters } = await authorizationParameters();
    const request = await oauth.issueRequestObject(as, rp.c, parameters, rp.key);
    const { params } = await expectInteraction(await get(authorizationUrl({ client_id: rp.id, request })));
    expect(params).toMatchObject({ clientId: rp.id, clientAuthenticated: true, redirectUri: REDIRECT });
  });
});

describe("refused request objects: our error page, never a redirect (the redirect_uri is not trusted yet)", () => {
  it("a bad signature", async () => {
    const rp = await keyClient();
    const other = await generateKeyPair("ES256");
    const request = await signObject(rp, await objectClaims(rp), { key: other.privateKey });
    const html = await expectPageError(await get(authorizationUrl({ client_id: rp.id, request })), "invalid_request_object");
    expect(html).toContain("signature");
  });

  it.each([
    ["a wrong aud", { aud: "https://other-op.example.test" }, "aud"],
    ["a wrong iss", { iss: "someone-else" }, "iss"],
    ["an expired object", { exp: Math.floor(Date.now() / 1000) - 120, iat: Math.floor(Date.now() / 1000) - 400 }, "expired"],
    ["an object valid for more than 60 minutes", { exp: Math.floor(Date.now() / 1000) + 7200 }, "exp"],
    ["no exp (RFC 9101 §10.8: required)", { exp: undefined }, "must have an exp"],
    ["exp more than 60 minutes after iat", { iat: Math.floor(Date.now() / 1000) - 3000, nbf: undefined,
      exp: Math.floor(Date.now() / 1000) + 900 }, "(exp - iat)"],
    ["exp more than 60 minutes after nbf", { iat: undefined, nbf: Math.floor(Date.now() / 1000) - 3000,
      exp: Math.floor(Date.now() / 1000) + 900 }, "(exp - nbf)"],
    ["another client_id inside", { client_id: "someone-else" }, "client_id"],
    ["a request_uri inside", { request_uri: "https://rp.example.test/r" }, "request_uri"],
  ])("%s", async (_name, overrides, words) => {
    const rp = await keyClient();
    const request = await signObject(rp, await objectClaims(rp, overrides));
    const html = await expectPageError(await get(authorizationUrl({ client_id: rp.id, request })), "invalid_request_object");
    expect(html).toContain(words);
  });

  it("alg none, and HS256 keyed by anything but the client secret, are refused", async () => {
    const rp = await keyClient();
    const claims = await objectClaims(rp);
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${
      Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
    await expectPageError(await get(authorizationUrl({ client_id: rp.id, request: none })), "invalid_request_object");
    const hmacWithWrongKey = await new SignJWT(claims).setProtectedHeader({ alg: "HS256" })
      .sign(new TextEncoder().encode("not-the-client-secret-0123456789abcdef"));
    await expectPageError(await get(authorizationUrl({ client_id: rp.id, request: hmacWithWrongKey })), "invalid_request_object");
  });

  it("a replayed object (same jti) is refused the second time", async () => {
    const rp = await keyClient();
    const { parameters } = await authorizationParameters();
    const request = await oauth.issueRequestObject(as, rp.c, parameters, rp.key);
    await expectInteraction(await get(authorizationUrl({ client_id: rp.id, request })));
    const html = await expectPageError(await get(authorizationUrl({ client_id: rp.id, request })), "invalid_request_object");
    expect(html).toContain("already been used");
  });

  it("a jti stays reserved until the object's exp (and the clock tolerance), not less", async () => {
    const rp = await keyClient();
    const now = Math.floor(Date.now() / 1000);
    const claims = await objectClaims(rp, { exp: now + 3000 });
    const request = await signObject(rp, claims);
    await expectInteraction(await get(authorizationUrl({ client_id: rp.id, request })));
    const row = await db.usedJwtId.findUniqueOrThrow({ where: { key: sha256(`request_object\n${rp.id}\n${claims.jti}`) } });
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual((now + 3000 + 30) * 1000);
    await expectPageError(await get(authorizationUrl({ client_id: rp.id, request })), "invalid_request_object");
  });

  it.each([1, true, { a: 1 }])("a typ header that is not a string (%j): invalid_request_object, never a 5xx", async (typ) => {
    const rp = await keyClient();
    const request = await signObject(rp, await objectClaims(rp), { typ });
    const html = await expectPageError(await get(authorizationUrl({ client_id: rp.id, request })), "invalid_request_object");
    expect(html).toContain("typ");
    const basic = `Basic ${Buffer.from(`${rp.id}:${rp.secret}`).toString("base64")}`;
    const res = await fetch(`${baseUrl}/par`, { method: "POST", body: new URLSearchParams({ request }),
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_request_object" });
  });

  it("a client_id in the query that is not the object's", async () => {
    const rp = await keyClient();
    const other = await keyClient();
    const request = await signObject(rp, await objectClaims(rp));
    await expectPageError(await get(authorizationUrl({ client_id: other.id, request })), "invalid_request_object");
  });

  it("request and request_uri together: invalid_request", async () => {
    const rp = await keyClient();
    const request = await signObject(rp, await objectClaims(rp));
    const requestUri = await push(rp, (await authorizationParameters()).parameters);
    await expectPageError(await get(authorizationUrl({ client_id: rp.id, request, request_uri: requestUri })), "invalid_request");
    // Nothing was spent: the pushed request still works once.
    await expectInteraction(await get(authorizationUrl({ client_id: rp.id, request_uri: requestUri })));
  });

  // The SSRF rules still hold on the client's own origins: each origin here is one of its redirect URIs'.
  it.each([
    ["a private address", "https://10.1.2.3/request.jwt"],
    ["the cloud metadata address", "https://169.254.169.254/latest/meta-data"],
    ["a loopback address (allowed only with ALLOW_LOOPBACK_CLIENT_URLS)", "https://127.0.0.1:9/request.jwt"],
    ["an IPv6 loopback", "https://[::1]/request.jwt"],
    ["an IPv4-mapped private address", "https://[::ffff:192.168.1.1]/request.jwt"],
    ["a name that resolves to loopback", "https://localhost/request.jwt"],
    ["plain http", "http://rp.example.test/request.jwt"],
  ])("a request_uri at %s: invalid_request_uri, with the rule and no fetch detail", async (_name, requestUri) => {
    const origin = new URL(requestUri).origin;
    const rp = await keyClient({ moreRedirectUris: origin.startsWith("https:") ? [`${origin}/cb`] : [] });
    const html = await expectPageError(await get(authorizationUrl({ client_id: rp.id, request_uri: requestUri })),
      "invalid_request_uri");
    expect(html).toContain("The request_uri could not be used: it must be an https URL on the origin (scheme, host and port)");
    expect(html).not.toMatch(/private, loopback|does not resolve|must use https \(/);
  });

  it("a request_uri on an origin the client did not register: the same refusal (RFC 9101 §10.4.1)", async () => {
    const rp = await keyClient();
    for (const requestUri of ["https://rp.example.test:8443/request.jwt", "https://other.example.test/request.jwt",
      "https://no-such-host.invalid/request.jwt", "https://10.1.2.3/request.jwt"]) {
      const html = await expectPageError(await get(authorizationUrl({ client_id: rp.id, request_uri: requestUri })),
        "invalid_request_uri");
      expect(html).toContain("on the origin (scheme, host and port)");
      expect(html).not.toMatch(/does not resolve|private, loopback/);
    }
  });
});

describe("pushed request_uri: one use, short-lived, the pushing client's only", () => {
  it("reused: invalid_request_uri the second time", async () => {
    const rp = await keyClient();
    const requestUri = await push(rp, (await authorizationParameters()).parameters);
    await expectInteraction(await get(authorizationUrl({ client_id: rp.id, request_uri: requestUri })));
    await expectPageError(await get(authorizationUrl({ client_id: rp.id, request_uri: requestUri })), "invalid_request_uri");
  });

  it("expired: invalid_request_uri", async () => {
    const rp = await keyClient();
    const requestUri = await push(rp, (await authorizationParameters()).parameters);
    await db.pushedAuthorizationRequest.updateMany({ where: { clientId: rp.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expectPageError(await get(authorizationUrl({ client_id: rp.id, request_uri: requestUri })), "invalid_request_uri");
  });

  it("another client's: invalid_request_uri, and the owner can still use it", async () => {
    const owner = await keyClient();
    const thief = await keyClient();
    const requestUri = await push(owner, (await authorizationParameters()).parameters);
    await expectPageError(await get(authorizationUrl({ client_id: thief.id, request_uri: requestUri })), "invalid_request_uri");
    await expectInteraction(await get(authorizationUrl({ client_id: owner.id, request_uri: requestUri })));
  });

  it("a cross-site form POST carrying it (no browser cookie) is re-issued as a GET before it is spent", async () => {
    const rp = await keyClient();
    const requestUri = await push(rp, (await authorizationParameters()).parameters);
    const post = await fetch(`${baseUrl}/authorize`, { method: "POST", redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: rp.id, request_uri: requestUri }) });
    expect(post.status).toBe(303);
    await expectInteraction(await get(post.headers.get("location")!));
  });

  it("an unknown urn: invalid_request_uri", async () => {
    const rp = await keyClient();
    await expectPageError(await get(authorizationUrl({ client_id: rp.id,
      request_uri: `urn:ietf:params:oauth:request_uri:${randomToken(32)}` })), "invalid_request_uri");
  });

  it("fifty parallel uses of one request_uri: exactly one proceeds", async () => {
    const rp = await keyClient();
    const requestUri = await push(rp, (await authorizationParameters()).parameters);
    const url = authorizationUrl({ client_id: rp.id, request_uri: requestUri });
    const answers = await Promise.all(Array.from({ length: 50 }, () => get(url)));
    const proceeded = answers.filter((r) => r.status === 302 && /\/interaction\//.test(r.headers.get("location") ?? ""));
    expect(proceeded).toHaveLength(1);
    const refused = answers.filter((r) => r.status === 400);
    expect(refused).toHaveLength(49);
    for (const r of refused) expect(await r.text()).toContain("invalid_request_uri");
  });
});

describe("the PAR endpoint refuses what /authorize would", () => {
  async function rawPush(rp: Rp, fields: Record<string, string>, auth = true) {
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (auth) headers.authorization = `Basic ${Buffer.from(`${rp.id}:${rp.secret}`).toString("base64")}`;
    const res = await fetch(`${baseUrl}/par`, { method: "POST", headers, body: new URLSearchParams(fields) });
    return { status: res.status, body: await res.json() as { error?: string; error_description?: string } };
  }

  it.each([
    ["no client authentication", {}, false, 401, "invalid_client"],
    ["a request_uri", { request_uri: "urn:ietf:params:oauth:request_uri:abc" }, true, 400, "invalid_request"],
    ["an unregistered redirect_uri", { redirect_uri: "https://evil.example.test/cb" }, true, 400, "invalid_request"],
    ["a scope the client may not use", { scope: "openid not_a_scope" }, true, 400, "invalid_scope"],
    ["response_type token", { response_type: "token" }, true, 400, "unsupported_response_type"],
    ["a bad request object", { request: "eyJhbGciOiJub25lIn0.e30." }, true, 400, "invalid_request_object"],
  ] as const)("%s", async (_name, overrides, auth, status, error) => {
    const rp = await keyClient();
    const fields = { ...Object.fromEntries((await authorizationParameters()).parameters), ...overrides };
    const res = await rawPush(rp, fields, auth);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(error);
  });

  it("the wrong secret: 401 invalid_client", async () => {
    const rp = await keyClient();
    const res = await rawPush({ ...rp, secret: "wrong" }, Object.fromEntries((await authorizationParameters()).parameters));
    expect(res).toMatchObject({ status: 401, body: { error: "invalid_client" } });
  });

  it("client_secret_post works and the secret is not stored with the request", async () => {
    const rp = await keyClient();
    const fields = { ...Object.fromEntries((await authorizationParameters()).parameters), client_id: rp.id, client_secret: rp.secret };
    const res = await rawPush(rp, fields, false);
    expect(res.status).toBe(201);
    const rows = await db.pushedAuthorizationRequest.findMany({ where: { clientId: rp.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.params).not.toContain(rp.secret);
  });
});

describe("per-client rules", () => {
  it("requireSignedRequestObject: a plain request and a plain push are refused, a signed one proceeds", async () => {
    const rp = await keyClient({ requireSignedRequestObject: true });
    const { parameters } = await authorizationParameters();
    const plain = authorizationUrl({ client_id: rp.id, ...Object.fromEntries(parameters) });
    expect(expectRedirectError(await get(plain), "invalid_request")).toContain("signed request object");
    const pushed = await oauth.pushedAuthorizationRequest(as, rp.c, rp.auth, parameters, insecure);
    expect(pushed.status).toBe(400);
    expect(await pushed.json()).toMatchObject({ error: "invalid_request" });
    const request = await oauth.issueRequestObject(as, rp.c, parameters, rp.key);
    await expectInteraction(await get(authorizationUrl({ client_id: rp.id, request })));
    const signedPush = await push(rp, new URLSearchParams({ request: await oauth.issueRequestObject(as, rp.c, parameters, rp.key) }));
    await expectInteraction(await get(authorizationUrl({ client_id: rp.id, request_uri: signedPush })));
  });

  it("requirePushedAuthorizationRequests: a plain request and a request object by value are refused, PAR proceeds", async () => {
    const rp = await keyClient({ requirePushedAuthorizationRequests: true });
    const { parameters } = await authorizationParameters();
    const plain = authorizationUrl({ client_id: rp.id, ...Object.fromEntries(parameters) });
    expect(expectRedirectError(await get(plain), "invalid_request")).toContain("pushed authorization requests");
    const request = await oauth.issueRequestObject(as, rp.c, parameters, rp.key);
    expectRedirectError(await get(authorizationUrl({ client_id: rp.id, request })), "invalid_request");
    await expectInteraction(await get(authorizationUrl({ client_id: rp.id, request_uri: await push(rp, parameters) })));
  });
});
