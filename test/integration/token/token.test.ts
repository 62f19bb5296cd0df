import { describe, expect, inject, it } from "vitest";
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from "jose";
import { createHash } from "node:crypto";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { config } from "@/lib/config";
import { pairwiseSubject } from "@/lib/subjects/pairwise-subject";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { basic, issueTestCode, obtainTokens, redeemCode } from "../../support/codes";

const baseUrl = inject("baseUrl");
const TTL = config().ACCESS_TOKEN_TTL;
const jwks = createRemoteJWKSet(new URL(`${baseUrl}/jwks`));
const verifier = "M25iVXpKU3puUjFaYWg3T1NDTDQtcW1ROUY5YXlwalNoc0hhakxifmZHag";

function postJson(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/token`, {
    method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body),
  });
}
function postForm(body: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}/token`, {
    method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(body),
  });
}
async function expectError(res: Response, status: number, error: string) {
  const body = await res.json();
  expect({ status: res.status, error: body.error }, JSON.stringify(body)).toEqual({ status, error });
  expect(body.error_description).toBeTypeOf("string");
  expect(res.headers.get("cache-control")).toBe("no-store");
  return body;
}
async function premiumInfo(token: string) {
  return fetch(`${baseUrl}/premiuminfo?token=${encodeURIComponent(token)}`);
}

describe("token endpoint: the interface's JSON + Authentication variant and the standard form + Authorization variant", () => {
  it("JSON body with `Authentication: Basic` returns the spec's token set, expires_in an absolute time as a string", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: "openid mc_identity_phonenumber" });
    const before = Math.floor(Date.now() / 1000);
    const res = await postJson({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri },
      { Authentication: basic(client.id, client.secret!) });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body.token_type).toBe("bearer");
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.id_token.split(".")).toHaveLength(3);
    expect(body.expires_in).toBeTypeOf("string");
    expect(Number(body.expires_in)).toBeGreaterThanOrEqual(before + TTL);
    expect(Number(body.expires_in)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + TTL + 1);
    expect(body.refresh_token).toBeUndefined();
    expect(body.scope).toBe("openid mc_identity_phonenumber");
    // Only the hash is stored.
    const row = await db.accessToken.findUnique({ where: { tokenHash: sha256(body.access_token) } });
    expect(row).toMatchObject({ clientId: client.id, subscriberId: subscriber.id, scope: "openid mc_identity_phonenumber" });
    expect(await db.accessToken.count({ where: { tokenHash: body.access_token } })).toBe(0);
  });

  it("form body with `Authorization: Basic` works the same; a client registered for seconds gets a number", async () => {
    const client = await createTestClient({ expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber });
    const res = await postForm({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri },
      { Authorization: basic(client.id, client.secret!) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.expires_in).toBe(TTL);
    expect(body.token_type).toBe("bearer");
  });

  it("accepts client_secret_post", async () => {
    const client = await createTestClient();
    const code = await issueTestCode({ client, subscriber: await createTestSubscriber() });
    const res = await postForm({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri,
      client_id: client.id, client_secret: client.secret! });
    expect(res.status).toBe(200);
  });

  it("accepts body credentials repeated beside the Basic header when they agree (the Java SDK)", async () => {
    const client = await createTestClient();
    const code = await issueTestCode({ client, subscriber: await createTestSubscriber() });
    const res = await postForm({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri,
      client_id: client.id, client_secret: client.secret! }, { Authorization: basic(client.id, client.secret!) });
    expect(res.status).toBe(200);
  });

  it("accepts form-encoded special characters in Basic credentials (RFC 6749 §2.3.1)", async () => {
    const client = await createTestClient();
    // The fixture ids contain '-' and '_' only; encoding them must still work.
    const code = await issueTestCode({ client, subscriber: await createTestSubscriber() });
    const res = await postForm({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri },
      { Authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret!)}`).toString("base64")}` });
    expect(res.status).toBe(200);
  });
});

describe("token endpoint: client authentication (401 invalid_client)", () => {
  it("refuses disagreeing body credentials", async () => {
    const client = await createTestClient();
    const other = await createTestClient();
    const code = await issueTestCode({ client, subscriber: await createTestSubscriber() });
    const res = await postForm({ grant_type: "authorization_code", code, redirect_uri: client.redirectUri,
      client_id: other.id }, { Authorization: basic(client.id, client.secret!) });
    await expectError(res, 401, "invalid_client");
    expect(res.headers.get("www-authenticate")).toMatch(/error="invalid_client"/);
  });

  it("refuses missing, wrong and unknown credentials with WWW-Authenticate", async () => {
    const client = await createTestClient();
    const code = await issueTestCode({ client, subscriber: await createTestSubscriber() });
    const base = { grant_type: "authorization_code", code, redirect_uri: client.redirectUri };
    for (const headers of [{}, { Authorization: basic(client.id, "wrong") }, { Authentication: basic("nobody", "x") },
      { Authorization: "Basic !!!" }] as Record<string, string>[]) {
      const res = await postForm(base, headers);
      await expectError(res, 401, "invalid_client");
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    }
    // The code was never touched: it still works.
    expect((await redeemCode(baseUrl, client, code)).status).toBe(200);
  });

  it("refuses a disabled client", async () => {
    const client = await createTestClient();
    await db.client.update({ where: { id: client.id }, data: { status: "disabled" } });
    const code = await issueTestCode({ client, subscriber: await createTestSubscriber() });
    await expectError(await redeemCode(baseUrl, client, code), 401, "invalid_client");
  });
});

describe("token endpoint: malformed requests (400 invalid_request)", () => {
  it("refuses malformed JSON, a JSON array, a wrong content type, an oversized body and repeated parameters", async () => {
    const client = await createTestClient();
    const auth = { Authorization: basic(client.id, client.secret!) };
    const send = (body: string, type: string) =>
      fetch(`${baseUrl}/token`, { method: "POST", headers: { "Content-Type": type, ...auth }, body });
    await expectError(await send("{not json", "application/json"), 400, "invalid_request");
    await expectError(await send("[1,2]", "application/json"), 400, "invalid_request");
    await expectError(await send(JSON.stringify({ grant_type: { x: 1 } }), "application/json"), 400, "invalid_request");
    await expectError(await send("grant_type=authorization_code", "text/plain"), 400, "invalid_request");
    await expectError(await send(`grant_type=authorization_code&code=${"a".repeat(20_000)}`,
      "application/x-www-form-urlencoded"), 413, "invalid_request");
    await expectError(await send("grant_type=authorization_code&grant_type=refresh_token",
      "application/x-www-form-urlencoded"), 400, "invalid_request");
  });

  it("names missing parameters and refuses unknown grant types", async () => {
    const client = await createTestClient();
    const auth = { Authorization: basic(client.id, client.secret!) };
    let body = await expectError(await postForm({ code: "x", redirect_uri: client.redirectUri }, auth), 400, "invalid_request");
    expect(body.error_description).toMatch(/grant_type/);
    body = await expectError(await postForm({ grant_type: "authorization_code", redirect_uri: client.redirectUri }, auth),
      400, "invalid_request");
    expect(body.error_description).toMatch(/code/);
    body = await expectError(await postForm({ grant_type: "authorization_code", code: "x" }, auth), 400, "invalid_request");
    expect(body.error_description).toMatch(/redirect_uri/);
    await expectError(await postForm({ grant_type: "password", username: "a", password: "b" }, auth), 400,
      "unsupported_grant_type");
    await expectError(await postForm({ grant_type: "urn:ietf:params:oauth:grant-type:device_code" }, auth), 400,
      "unsupported_grant_type");
    // Supported since issue 19, but this client is not registered for it (RFC 6749 §5.2).
    await expectError(await postForm({ grant_type: "client_credentials" }, auth), 400, "unauthorized_client");
  });

  it("never answers GET", async () => {
    const res = await fetch(`${baseUrl}/token`);
    expect(res.status).toBe(405);
  });
});

describe("token endpoint: code checks (400 invalid_grant)", () => {
  it("refuses an unknown code, another client's code, an expired code and a different redirect_uri", async () => {
    const client = await createTestClient({ redirectUris: ["https://rp.example.test/cb", "https://rp.example.test/cb2"] });
    const other = await createTestClient();
    const subscriber = await createTestSubscriber();
    await expectError(await redeemCode(baseUrl, client, "no-such-code"), 400, "invalid_grant");
    const othersCode = await issueTestCode({ client: other, subscriber });
    await expectError(await redeemCode(baseUrl, client, othersCode), 400, "invalid_grant");
    const expired = await issueTestCode({ client, subscriber, expiresAt: new Date(Date.now() - 1000) });
    await expectError(await redeemCode(baseUrl, client, expired), 400, "invalid_grant");
    const code = await issueTestCode({ client, subscriber });
    await expectError(await redeemCode(baseUrl, { ...client, redirectUri: "https://rp.example.test/cb2" }, code),
      400, "invalid_grant");
    // Failed checks do not spend the code.
    expect((await redeemCode(baseUrl, client, code)).status).toBe(200);
    // And the other client's code still works for its owner.
    expect((await redeemCode(baseUrl, other, othersCode)).status).toBe(200);
  });

  it("checks PKCE S256 and refuses a downgrade either way", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const withPkce = await issueTestCode({ client, subscriber, codeVerifier: verifier });
    await expectError(await redeemCode(baseUrl, client, withPkce, { code_verifier: `${verifier.slice(1)}A` }), 400,
      "invalid_grant");
    await expectError(await redeemCode(baseUrl, client, withPkce), 400, "invalid_grant"); // challenge, no verifier
    const withoutPkce = await issueTestCode({ client, subscriber });
    await expectError(await redeemCode(baseUrl, client, withoutPkce, { code_verifier: verifier }), 400, "invalid_grant");
    await expectError(await redeemCode(baseUrl, client, withPkce, { code_verifier: "too-short" }), 400, "invalid_request");
    await expectError(await redeemCode(baseUrl, client, withPkce, { code_verifier: "x".repeat(129) }), 400,
      "invalid_request");
    expect((await redeemCode(baseUrl, client, withPkce, { code_verifier: verifier })).status).toBe(200);
  });

  it("lets a public client authenticate with client_id alone, and only with PKCE", async () => {
    const client = await createTestClient({ isPublic: true });
    const subscriber = await createTestSubscriber();
    const noPkce = await issueTestCode({ client, subscriber });
    await expectError(await redeemCode(baseUrl, client, noPkce, { client_id: client.id }), 400, "invalid_grant");
    const code = await issueTestCode({ client, subscriber, codeVerifier: verifier });
    const res = await redeemCode(baseUrl, client, code, { client_id: client.id, code_verifier: verifier });
    expect(res.status).toBe(200);
    // A public client must not present a secret it does not have.
    const again = await issueTestCode({ client, subscriber, codeVerifier: verifier });
    await expectError(await redeemCode(baseUrl, client, again, { client_id: client.id, client_secret: "x",
      code_verifier: verifier }), 401, "invalid_client");
  });
});

describe("token endpoint: one-use codes", () => {
  it("refuses a replayed code and revokes every token issued from it (RFC 6749 §4.1.2)", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const code = await issueTestCode({ client, subscriber, scope: "openid mc_identity_phonenumber offline_access" });
    const first = await redeemCode(baseUrl, client, code);
    expect(first.status).toBe(200);
    const tokens = await first.json();
    expect((await premiumInfo(tokens.access_token)).status).toBe(200);

    const replay = await redeemCode(baseUrl, client, code);
    await expectError(replay, 400, "invalid_grant");
    const res = await premiumInfo(tokens.access_token);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe("invalid_token");
    const refreshed = await postForm({ grant_type: "refresh_token", refresh_token: tokens.refresh_token },
      { Authorization: basic(client.id, client.secret!) });
    await expectError(refreshed, 400, "invalid_grant");
  });

  it("of two concurrent redemptions exactly one succeeds", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    for (let round = 0; round < 5; round++) {
      const code = await issueTestCode({ client, subscriber, scope: "openid mc_identity_phonenumber" });
      const responses = await Promise.all([redeemCode(baseUrl, client, code), redeemCode(baseUrl, client, code),
        redeemCode(baseUrl, client, code)]);
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 400, 400]);
      for (const r of responses.filter((x) => x.status === 400)) expect((await r.json()).error).toBe("invalid_grant");
      expect(await db.accessToken.count({ where: { codeHash: sha256(code) } })).toBe(1);
      // The losers are replays: the winner's token is revoked too (RFC 6749 §4.1.2).
      const winner = await responses.find((r) => r.status === 200)!.json();
      expect((await premiumInfo(winner.access_token)).status).toBe(401);
    }
  });
});

describe("token endpoint: refresh tokens only with offline_access", () => {
  it("issues a refresh token when offline_access was granted", async () => {
    const client = await createTestClient();
    const tokens = await obtainTokens(baseUrl, client, await createTestSubscriber(), { scope: "openid offline_access" });
    expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.scope).toBe("openid offline_access");
  });
});

describe("id_token", () => {
  it("verifies against our jwks_uri and carries every claim the interface and the field need", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const authTime = new Date(Date.now() - 30_000);
    const tokens = await obtainTokens(baseUrl, client, subscriber, {
      scope: "openid mc_authn", nonce: "n-0S6_WzA2Mj", acr: "3", amr: "otp sms pin", authTime,
      loginHint: `MSISDN:${subscriber.msisdn}`,
    });
    const header = decodeProtectedHeader(tokens.id_token);
    expect(header).toMatchObject({ alg: "RS256", typ: "JWT" });
    const published = await (await fetch(`${baseUrl}/jwks`)).json();
    expect(published.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid);

    const { payload } = await jwtVerify(tokens.id_token, jwks, { issuer: baseUrl, audience: client.id,
      algorithms: ["RS256"] });
    expect(payload.iss).toBe(config().ISSUER);
    expect(payload.sub).toBe(pairwiseSubject({ subscriberId: subscriber.id, sectorIdentifier: "rp.example.test" }));
    expect(payload.aud).toBe(client.id);
    expect(payload.azp).toBe(client.id);
    expect(payload.exp! - payload.iat!).toBe(TTL);
    expect(payload.nonce).toBe("n-0S6_WzA2Mj");
    expect(payload.acr).toBe("3");
    expect(payload.amr).toEqual(["otp", "sms", "pin"]);
    expect(payload.auth_time).toBe(Math.floor(authTime.getTime() / 1000));
    const digest = createHash("sha256").update(tokens.access_token).digest();
    expect(payload.at_hash).toBe(digest.subarray(0, 16).toString("base64url"));
    expect(payload.hashed_login_hint).toBe(createHash("sha256").update(`MSISDN:${subscriber.msisdn}`).digest("hex"));
    expect(payload.hashed_login_hint).toMatch(/^[0-9a-f]{64}$/);
  });

  it("omits hashed_login_hint without a hint and keeps acr a string", async () => {
    const client = await createTestClient();
    const tokens = await obtainTokens(baseUrl, client, await createTestSubscriber(), { acr: "2", amr: "otp" });
    const { payload } = await jwtVerify(tokens.id_token, jwks, { issuer: baseUrl, audience: client.id });
    expect(payload.hashed_login_hint).toBeUndefined();
    expect(payload.acr).toBe("2");
    expect(payload.amr).toEqual(["otp"]);
  });

  it("gives one subscriber the same sub at clients of one sector and different subs across sectors", async () => {
    const subscriber = await createTestSubscriber();
    const a = await createTestClient({ redirectUris: ["https://shop.example.test/cb"] });
    const b = await createTestClient({ redirectUris: ["https://shop.example.test/other"] });
    const c = await createTestClient({ redirectUris: ["https://bank.example.test/cb"] });
    const sub = async (client: typeof a) =>
      (await jwtVerify((await obtainTokens(baseUrl, client, subscriber)).id_token, jwks)).payload.sub;
    const [sa, sb, sc] = [await sub(a), await sub(b), await sub(c)];
    expect(sa).toBe(sb);
    expect(sa).not.toBe(sc);
  });
});
