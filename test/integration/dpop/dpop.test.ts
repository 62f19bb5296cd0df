import { describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { randomUUID } from "node:crypto";
import { createClient } from "@/lib/clients/create-client";
import { updateClient } from "@/lib/clients/update-client";
import { sha256 } from "@/lib/crypto";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { createTestSubscriber } from "../../support/fixtures";
import { signInAndConsent } from "../../support/browserless";
import { basic, issueTestCode } from "../../support/codes";
import { db } from "@/lib/db";
import { withNonceRetry } from "../../support/dpop-nonce-retry";

/**
 * DPoP (RFC 9449, docs/dpop.md) over HTTP against the test server: oauth4webapi's `DPoP(client, keyPair)`
 * through the whole flow, then every rule of proof checking with hand-made proofs. Every refusal is checked
 * for its code, status and headers; none may be a 5xx.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const SCOPE = "openid email offline_access mc_identity_phonenumber";

type KeyPair = { publicKey: CryptoKey; privateKey: CryptoKey };
const keyPair = (alg = "ES256") => generateKeyPair(alg, { extractable: true }) as Promise<KeyPair>;

async function registerClient({ isPublic = false, dpopBoundAccessTokens = false } = {}) {
  const name = `Dpop${Math.random().toString(36).slice(2, 10)}`;
  const redirectUri = "https://rp.example.test/callback";
  const { client: c, clientSecret } = await createClient({ name, redirectUris: [redirectUri], scopes: [...SUPPORTED_SCOPES],
    isPublic, dpopBoundAccessTokens });
  return { id: c.id, secret: clientSecret ?? undefined, redirectUri };
}


/** A DPoP proof made by hand, every field overridable (undefined claims are left out). */
async function proof(key: KeyPair, claims: Record<string, unknown>, header: Record<string, unknown> = {},
  alg = "ES256"): Promise<string> {
  const jwk = await exportJWK(key.publicKey);
  const payload = { jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ...claims };
  for (const k of Object.keys(payload)) if ((payload as Record<string, unknown>)[k] === undefined) delete (payload as Record<string, unknown>)[k];
  return new SignJWT(payload).setProtectedHeader({ alg, typ: "dpop+jwt", jwk, ...header }).sign(key.privateKey);
}

const url = (path: string) => `${baseUrl}${path}`;

/** A token request's nonce: the server hands it out on a use_dpop_nonce answer (one round trip). */
let nonceClient: Promise<Awaited<ReturnType<typeof registerClient>>> | undefined;
async function serverNonce(): Promise<string> {
  const client = await (nonceClient ??= registerClient());
  const res = await tokenRequest(client, { grant_type: "authorization_code", code: "x", redirect_uri: client.redirectUri },
    await proof(await keyPair(), { htm: "POST", htu: url("/token") }));
  expect(res.status).toBe(400);
  expect((await res.json()).error).toBe("use_dpop_nonce");
  return res.headers.get("dpop-nonce")!;
}

/** Issues a code and redeems it with a DPoP proof of `key` (by hand); returns the response body. */
async function dpopTokens(key: KeyPair, opts: { isPublic?: boolean; client?: Awaited<ReturnType<typeof registerClient>> } = {}) {
  const client = opts.client ?? await registerClient({ isPublic: opts.isPublic });
  const subscriber = await createTestSubscriber();
  const verifier = "v".repeat(50);
  const code = await issueTestCode({ client, subscriber, scope: SCOPE, codeVerifier: verifier });
  const res = await tokenRequest(client, { grant_type: "authorization_code", code, redirect_uri: client.redirectUri,
    code_verifier: verifier }, await proof(key, { htm: "POST", htu: url("/token"), nonce: await serverNonce() }));
  expect(res.status).toBe(200);
  expect(res.headers.get("dpop-nonce")).toMatch(/^\d+\./);
  const body = await res.json() as { access_token: string; refresh_token?: string; token_type: string; id_token: string };
  return { client, subscriber, body };
}

function tokenRequest(client: { id: string; secret?: string }, params: Record<string, string>, dpop?: string) {
  return fetch(url("/token"), { method: "POST", headers: {
    "content-type": "application/x-www-form-urlencoded",
    ...(client.secret ? { authorization: basic(client.id, client.secret) } : {}),
    ...(dpop ? { dpop } : {}),
  }, body: new URLSearchParams({ ...(client.secret ? {} : { client_id: client.id }), ...params }) });
}

/** A protected-resource request with `Authorization: <scheme> <token>` and an optional proof. */
function resource(path: string, token: string, { scheme = "DPoP", dpop, method = "GET" }:
  { scheme?: string; dpop?: string; method?: string } = {}) {
  return fetch(url(path), { method, headers: { authorization: `${scheme} ${token}`, ...(dpop ? { dpop } : {}) } });
}

async function expectTokenError(res: Response, error: string, status = 400) {
  expect(res.status).toBe(status);
  expect((await res.json()).error).toBe(error);
}

/** 401 with `WWW-Authenticate: DPoP error="…", algs="…"` (RFC 9449 §7.1). */
async function expectResourceError(res: Response, error: string) {
  expect(res.status).toBe(401);
  expect((await res.json()).error).toBe(error);
  const challenge = res.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(new RegExp(`^DPoP error="${error}", error_description="[^"]*", algs="RS256 PS256 ES256"$`));
}

describe("oauth4webapi v3 with DPoP(client, keyPair): the whole flow", () => {
  it.each([["a confidential client (client_secret_post)", false], ["a public client (PKCE only)", true]])(
    "%s signs in, gets DPoP-bound tokens, reads userinfo and premium info with proofs, refreshes", async (_, isPublic) => {
      const rp = await registerClient({ isPublic });
      const subscriber = await createTestSubscriber();
      const as = await oauth.processDiscoveryResponse(issuer,
        await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
      expect(as.dpop_signing_alg_values_supported).toEqual(["RS256", "PS256", "ES256"]);
      const c: oauth.Client = { client_id: rp.id };
      const clientAuth = isPublic ? oauth.None() : oauth.ClientSecretPost(rp.secret!);
      const key = await keyPair();
      const DPoP = oauth.DPoP(c, key);
      const jkt = await calculateJwkThumbprint(await exportJWK(key.publicKey));

      const codeVerifier = oauth.generateRandomCodeVerifier();
      const authUrl = new URL(as.authorization_endpoint!);
      for (const [k, v] of Object.entries({ client_id: rp.id, redirect_uri: rp.redirectUri, response_type: "code",
        scope: SCOPE, code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256" })) authUrl.searchParams.set(k, v);
      const { callbackUrl } = await signInAndConsent({ authorizationUrl: authUrl.href, msisdn: subscriber.msisdn,
        pin: subscriber.pin });
      const params = oauth.validateAuthResponse(as, c, callbackUrl);

      // The first token request has no nonce: use_dpop_nonce, then the retry carries the one the handle kept.
      let attempts = 0;
      const result = await withNonceRetry(async () => {
        attempts++;
        return oauth.processAuthorizationCodeResponse(as, c, await oauth.authorizationCodeGrantRequest(as, c, clientAuth,
          params, rp.redirectUri, codeVerifier, { DPoP, ...insecure }), { requireIdToken: true });
      });
      expect(attempts).toBe(2);
      expect(result.token_type).toBe("dpop");
      const claims = oauth.getValidatedIdTokenClaims(result)!;
      expect(claims).toMatchObject({ iss: baseUrl, aud: rp.id });
      expect(claims.cnf).toBeUndefined(); // the id_token is unchanged (RFC 9449 binds access tokens only)

      const userInfo = await oauth.processUserInfoResponse(as, c, claims.sub,
        await oauth.userInfoRequest(as, c, result.access_token, { DPoP, ...insecure }));
      expect(userInfo).toMatchObject({ sub: claims.sub, email: "alice@example.test" });
      const premium = await oauth.protectedResourceRequest(result.access_token, "GET", new URL("/premiuminfo", baseUrl),
        new Headers(), null, { DPoP, ...insecure });
      expect(premium.status).toBe(200);
      expect(await premium.json()).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

      // Introspection (by the confidential client, or another one for the public client) shows the binding.
      const introspector = isPublic ? await registerClient() : rp;
      const intro = await fetch(url("/introspect"), { method: "POST", headers: {
        authorization: basic(introspector.id, introspector.secret!), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: result.access_token }) });
      expect(await intro.json()).toMatchObject({ active: true, token_type: "DPoP", cnf: { jkt } });
      const stored = await db.refreshToken.findFirstOrThrow({ where: { tokenHash: sha256(result.refresh_token!) } });
      expect(stored.dpopJkt).toBe(isPublic ? jkt : null);

      const refreshed = await withNonceRetry(async () => oauth.processRefreshTokenResponse(as, c,
        await oauth.refreshTokenGrantRequest(as, c, clientAuth, result.refresh_token!, { DPoP, ...insecure })));
      expect(refreshed.token_type).toBe("dpop");
      expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(claims.sub);
      expect(await oauth.processUserInfoResponse(as, c, claims.sub,
        await oauth.userInfoRequest(as, c, refreshed.access_token, { DPoP, ...insecure }))).toMatchObject({ sub: claims.sub });

      // Revocation is unchanged: the bound token stops working.
      const revoke = await fetch(url("/revoke"), { method: "POST", headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(isPublic ? {} : { authorization: basic(rp.id, rp.secret!) }) },
        body: new URLSearchParams({ token: refreshed.access_token, ...(isPublic ? { client_id: rp.id } : {}) }) });
      expect(revoke.status).toBe(200);
      await expect(oauth.userInfoRequest(as, c, refreshed.access_token, { DPoP, ...insecure })
        .then((r) => oauth.processUserInfoResponse(as, c, claims.sub, r))).rejects.toMatchObject({ status: 401 });
    });
});

describe("the token endpoint (RFC 9449 §5, §8)", () => {
  it("nonce round trip: a proof without a nonce or with a stale one gets use_dpop_nonce and a DPoP-Nonce to retry with", async () => {
    const key = await keyPair();
    const client = await registerClient();
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: SCOPE });
    const params = { grant_type: "authorization_code", code, redirect_uri: client.redirectUri };
    const first = await tokenRequest(client, params, await proof(key, { htm: "POST", htu: url("/token") }));
    await expectTokenError(first, "use_dpop_nonce");
    const nonce = first.headers.get("dpop-nonce")!;
    expect(nonce).toMatch(/^\d+\.[A-Za-z0-9_-]{32}$/);
    const stale = `${Number(nonce.split(".")[0]) - 2}.${nonce.split(".")[1]}`;
    const second = await tokenRequest(client, params, await proof(key, { htm: "POST", htu: url("/token"), nonce: stale }));
    await expectTokenError(second, "use_dpop_nonce");
    expect(second.headers.get("dpop-nonce")).toBe(nonce);
    const third = await tokenRequest(client, params, await proof(key, { htm: "POST", htu: url("/token"), nonce }));
    expect(third.status).toBe(200);
    expect((await third.json()).token_type).toBe("DPoP");
    // The code was not spent by the refused attempts.
  });

  it("a token request without a proof is unchanged: Bearer, nothing bound, no DPoP-Nonce", async () => {
    const client = await registerClient();
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: SCOPE });
    const res = await tokenRequest(client, { grant_type: "authorization_code", code, redirect_uri: client.redirectUri });
    expect(res.status).toBe(200);
    expect(res.headers.get("dpop-nonce")).toBeNull();
    const body = await res.json();
    expect(body.token_type).toBe("bearer");
    expect((await resource("/userinfo", body.access_token, { scheme: "Bearer" })).status).toBe(200);
    // An unbound token with the DPoP scheme is refused; a Bearer token with a proof beside it is fine as Bearer.
    await expectResourceError(await resource("/userinfo", body.access_token, { scheme: "DPoP",
      dpop: await proof(await keyPair(), { htm: "GET", htu: url("/userinfo"), ath: sha256(body.access_token) }) }),
    "invalid_token");
    const bearerWithProof = await resource("/premiuminfo", body.access_token, { scheme: "Bearer",
      dpop: await proof(await keyPair(), { htm: "GET", htu: url("/premiuminfo") }) });
    expect(bearerWithProof.status).toBe(200);
  });

  it("a client registered with dpop_bound_access_tokens must send a proof (400 invalid_dpop_proof)", async () => {
    const client = await registerClient({ dpopBoundAccessTokens: true });
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: SCOPE });
    const params = { grant_type: "authorization_code", code, redirect_uri: client.redirectUri };
    await expectTokenError(await tokenRequest(client, params), "invalid_dpop_proof");
    const ok = await tokenRequest(client, params, await proof(await keyPair(), { htm: "POST", htu: url("/token"),
      nonce: await serverNonce() }));
    expect(ok.status).toBe(200);
    await updateClient({ clientId: client.id, changes: { dpopBoundAccessTokens: false } });
  });

  it("refuses bad proofs with 400 invalid_dpop_proof: method, URL, old iat, alg none / HS256, private key, typ, replay", async () => {
    const key = await keyPair();
    const nonce = await serverNonce();
    const client = await registerClient();
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: SCOPE });
    const params = { grant_type: "authorization_code", code, redirect_uri: client.redirectUri };
    const good = { htm: "POST", htu: url("/token"), nonce };
    const jwk = await exportJWK(key.publicKey);
    const privateJwk = await exportJWK(key.privateKey);
    const unsigned = (h: Record<string, unknown>, p: Record<string, unknown>) =>
      `${Buffer.from(JSON.stringify(h)).toString("base64url")}.${Buffer.from(JSON.stringify(p)).toString("base64url")}.`;
    const hs256 = await new SignJWT({ ...good, jti: randomUUID(), iat: Math.floor(Date.now() / 1000) })
      .setProtectedHeader({ alg: "HS256", typ: "dpop+jwt", jwk }).sign(new TextEncoder().encode("x".repeat(32)));
    const cases: Array<[string, string]> = [
      ["another method", await proof(key, { ...good, htm: "GET" })],
      ["another URL", await proof(key, { ...good, htu: url("/userinfo") })],
      ["another host", await proof(key, { ...good, htu: "https://attacker.example/token" })],
      ["an old iat", await proof(key, { ...good, iat: Math.floor(Date.now() / 1000) - 600 })],
      ["a future iat", await proof(key, { ...good, iat: Math.floor(Date.now() / 1000) + 600 })],
      ["no jti", await proof(key, { ...good, jti: undefined })],
      ["alg none", unsigned({ alg: "none", typ: "dpop+jwt", jwk }, { ...good, jti: randomUUID(), iat: Date.now() / 1000 })],
      ["alg HS256", hs256],
      ["a private key in the header", await proof(key, good, { jwk: privateJwk })],
      ["typ JWT", await proof(key, good, { typ: "JWT" })],
      ["another key's jwk", await proof(key, good, { jwk: await exportJWK((await keyPair()).publicKey) })],
      ["two proofs", `${await proof(key, good)}, ${await proof(key, good)}`],
      ["garbage", "not-a-jwt"],
    ];
    for (const [label, dpop] of cases) {
      const res = await tokenRequest(client, params, dpop);
      expect(res.status, label).toBe(400);
      expect((await res.json()).error, label).toBe("invalid_dpop_proof");
    }
    // Query and fragment are ignored in htu, and the URL is compared normalised (RFC 9449 §4.3, RFC 3986 §6.2).
    const normalised = new URL(url("/token"));
    const htu = `${normalised.protocol.toUpperCase()}//${normalised.host}/%74oken?x=1#f`;
    const replayed = await proof(key, { ...good, htu });
    const ok = await tokenRequest(client, params, replayed);
    expect(ok.status).toBe(200);
    // The same proof again (another request): the jti is spent.
    const code2 = await issueTestCode({ client, subscriber, scope: SCOPE });
    await expectTokenError(await tokenRequest(client, { ...params, code: code2 }, replayed), "invalid_dpop_proof");
  });

  it("accepts RS256 and PS256 proofs as well as ES256, and binds to the RSA key's thumbprint", async () => {
    for (const alg of ["RS256", "PS256"]) {
      const key = await keyPair(alg);
      const client = await registerClient();
      const subscriber = await createTestSubscriber();
      const code = await issueTestCode({ client, subscriber, scope: SCOPE });
      const res = await tokenRequest(client, { grant_type: "authorization_code", code, redirect_uri: client.redirectUri },
        await proof(key, { htm: "POST", htu: url("/token"), nonce: await serverNonce() }, {}, alg));
      expect(res.status, alg).toBe(200);
      const { access_token: token } = await res.json();
      const stored = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
      expect(stored.dpopJkt).toBe(await calculateJwkThumbprint(await exportJWK(key.publicKey)));
      const ui = await resource("/userinfo", token, { dpop: await proof(key, { htm: "GET", htu: url("/userinfo"),
        ath: sha256(token) }, {}, alg) });
      expect(ui.status, alg).toBe(200);
    }
  });

  it("a public client's bound refresh token needs a proof with the same key (invalid_grant otherwise)", async () => {
    const key = await keyPair();
    const { client, body } = await dpopTokens(key, { isPublic: true });
    const nonce = await serverNonce();
    const refresh = { grant_type: "refresh_token", refresh_token: body.refresh_token! };
    await expectTokenError(await tokenRequest(client, refresh), "invalid_grant");
    await expectTokenError(await tokenRequest(client, refresh,
      await proof(await keyPair(), { htm: "POST", htu: url("/token"), nonce })), "invalid_grant");
    const rsaKey = await keyPair("RS256");
    await expectTokenError(await tokenRequest(client, refresh,
      await proof(rsaKey, { htm: "POST", htu: url("/token"), nonce }, {}, "RS256")), "invalid_grant");
    const ok = await tokenRequest(client, refresh, await proof(key, { htm: "POST", htu: url("/token"), nonce }));
    expect(ok.status).toBe(200);
    expect((await ok.json()).token_type).toBe("DPoP");
  });
});

describe("the protected resources (RFC 9449 §7)", () => {
  it("refuses a bound token without its proof, as Bearer (header, body, ?token=), with a wrong or missing ath, another key", async () => {
    const key = await keyPair();
    const { body } = await dpopTokens(key);
    const token = body.access_token;
    const good = (path: string, extra: Record<string, unknown> = {}) =>
      proof(key, { htm: "GET", htu: url(path), ath: sha256(token), ...extra });

    await expectResourceError(await resource("/userinfo", token), "invalid_dpop_proof");
    await expectResourceError(await resource("/premiuminfo", token, { scheme: "Bearer", dpop: await good("/premiuminfo") }),
      "invalid_token");
    await expectResourceError(await fetch(url(`/premiuminfo?token=${token}`)), "invalid_token");
    await expectResourceError(await fetch(url("/userinfo"), { method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" }, body: `access_token=${token}` }), "invalid_token");
    await expectResourceError(await resource("/userinfo", token, { dpop: await good("/userinfo", { ath: undefined }) }),
      "invalid_dpop_proof");
    await expectResourceError(await resource("/userinfo", token, { dpop: await good("/userinfo", { ath: sha256("other") }) }),
      "invalid_dpop_proof");
    await expectResourceError(await resource("/userinfo", token, { dpop: await good("/premiuminfo") }), "invalid_dpop_proof");
    await expectResourceError(await resource("/userinfo", token, { dpop: await good("/userinfo", { htm: "POST" }) }),
      "invalid_dpop_proof");
    await expectResourceError(await resource("/userinfo", token, { dpop: await good("/userinfo",
      { iat: Math.floor(Date.now() / 1000) - 3600 }) }), "invalid_dpop_proof");
    await expectResourceError(await resource("/userinfo", token, { dpop: await proof(await keyPair(),
      { htm: "GET", htu: url("/userinfo"), ath: sha256(token) }) }), "invalid_dpop_proof");
    await expectResourceError(await resource("/userinfo", token, { dpop: await good("/userinfo", { nonce: "1.stale" }) }),
      "use_dpop_nonce");

    const proofOnce = await good("/premiuminfo");
    const ok = await resource("/premiuminfo", token, { dpop: proofOnce });
    expect(ok.status).toBe(200);
    await expectResourceError(await resource("/premiuminfo", token, { dpop: proofOnce }), "invalid_dpop_proof");
    // POST at userinfo: htm POST.
    const post = await resource("/userinfo", token, { method: "POST", dpop: await good("/userinfo", { htm: "POST" }) });
    expect(post.status).toBe(200);
  });

  it("a Bearer error's challenge lists DPoP too", async () => {
    const res = await fetch(url("/userinfo"));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(
      /^Bearer realm="userinfo", error="invalid_token", error_description="No Access Token", DPoP algs="RS256 PS256 ES256"$/);
  });

  it("fifty parallel requests with one proof: exactly one succeeds, the others are invalid_dpop_proof", async () => {
    const key = await keyPair();
    const { body } = await dpopTokens(key);
    const dpop = await proof(key, { htm: "GET", htu: url("/premiuminfo"), ath: sha256(body.access_token) });
    const answers = await Promise.all(Array.from({ length: 50 }, () => resource("/premiuminfo", body.access_token, { dpop })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(49);
    for (const r of answers.filter((a) => a.status === 401)) await expectResourceError(r, "invalid_dpop_proof");
  });
});
