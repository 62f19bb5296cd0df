import { describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { randomToken } from "@/lib/crypto";
import { createClient } from "@/lib/clients/create-client";
import { SUPPORTED_SCOPES } from "@/lib/oauth/scopes";
import { HEAD_REFUSED, HEAD_REFUSED_PAGES } from "@/lib/http/head-requests";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { csrfOf, postStep, withSetCookies } from "@/e2e/fixtures/interaction-http";
import {
  baseUrl, createTestClient, createTestSubscriber, db, expectCallback, expectInteraction, requestFor, signedInBrowser,
} from "../../support/authorize-support";
import { basic, obtainTokens } from "../../support/codes";

/**
 * HEAD on a GET with effects (issue 33, item 5; lib/http/head-requests.ts): a link previewer's or `curl -I`'s HEAD
 * is answered 405 with Allow before anything runs, so the subscriber's own GET that follows still finds the pushed
 * request, the request object's jti, the request waiting for its resume, the session, unspent.
 */
const head = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}${path}`, { method: "HEAD", redirect: "manual", headers });
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}${path}`, { redirect: "manual", headers });

function expectRefused(res: Response, allow: string) {
  expect(res.status).toBe(405);
  expect(res.headers.get("allow")).toBe(allow);
  expect(res.headers.get("set-cookie")).toBeNull();
  expect(res.headers.get("location")).toBeNull();
}

describe("HEAD on a GET with effects", () => {
  it("leaves a pushed request_uri for the subscriber's GET /authorize", async () => {
    const client = await createTestClient();
    const pushed = await fetch(`${baseUrl}/par`, { method: "POST", body: new URLSearchParams(requestFor(client)),
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client.id, client.secret!) } });
    expect(pushed.status).toBe(201);
    const { request_uri } = (await pushed.json()) as { request_uri: string };
    const path = `/authorize?${new URLSearchParams({ client_id: client.id, request_uri })}`;
    const answers = [await head(path), await head(path.replace("/authorize", "/authorize/"))];
    await expectInteraction(await get(path));
    for (const res of answers) expectRefused(res, "GET, POST");
  });

  it("leaves a signed request object's jti for the subscriber's GET /authorize", async () => {
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const kid = `k-${randomToken(4)}`;
    const { client } = await createClient({ name: `Head${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`,
      redirectUris: ["https://rp.example.test/callback"], sectorIdentifier: "rp.example.test", scopes: [...SUPPORTED_SCOPES],
      jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" }] } });
    const now = Math.floor(Date.now() / 1000);
    const request = await new SignJWT({ response_type: "code", scope: "openid", redirect_uri: "https://rp.example.test/callback",
      state: "s", nonce: "n", acr_values: "2", client_id: client.id, iss: client.id, aud: baseUrl, iat: now, nbf: now,
      exp: now + 300, jti: randomToken(12) }).setProtectedHeader({ alg: "ES256", kid, typ: "oauth-authz-req+jwt" }).sign(privateKey);
    const path = `/authorize?${new URLSearchParams({ client_id: client.id, request })}`;
    const answer = await head(path);
    await expectInteraction(await get(path));
    expectRefused(answer, "GET, POST");
  });

  it("leaves a consented request to be completed by the browser's GET /authorize/resume/{id}", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const { browserId } = await signedInBrowser(subscriber);
    let cookie = `${browserCookieName()}=${browserId}`;
    const query = requestFor(client);
    const { row } = await expectInteraction(await get(`/authorize?${new URLSearchParams(query)}`, { cookie }));
    const page = await get(`/interaction/${row.id}`, { cookie });
    const consent = await postStep(baseUrl, row.id, "consent", { cookie, headers: { origin: baseUrl },
      fields: { csrf_token: csrfOf(await page.text()), decision: "allow" } });
    expect(consent.status).toBe(303);
    cookie = withSetCookies(cookie, consent);
    const resumePath = new URL(consent.headers.get("location")!, baseUrl).pathname;
    expect(resumePath).toBe(`/authorize/resume/${row.id}`);
    const stored = () => db.authorizationRequest.findUniqueOrThrow({ where: { id: row.id } });
    const before = await stored();
    const answer = await head(resumePath, { cookie });
    expect(await stored()).toEqual(before);
    expectRefused(answer, "GET");
    const params = expectCallback(await get(resumePath, { cookie }), client, query.state);
    expect(params.get("code")).toBeTruthy();
  });

  it("leaves the session a GET /logout with id_token_hint would end", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const { browserId, session } = await signedInBrowser(subscriber);
    const { id_token } = await obtainTokens(baseUrl, client, subscriber);
    const path = `/logout?${new URLSearchParams({ id_token_hint: id_token, post_logout_redirect_uri: "https://rp.example.test/bye" })}`;
    const cookie = `${browserCookieName()}=${browserId}`;
    const answer = await head(path, { cookie });
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).endedAt).toBeNull();
    expectRefused(answer, "GET, POST");
    expect((await get(path, { cookie })).status).toBe(303);
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).endedAt).not.toBeNull();
  });

  it("starts no account sign-in: HEAD /account/start sets no state cookie", async () => {
    expectRefused(await head("/account/start"), "GET");
    const started = await get("/account/start");
    expect(started.status).toBe(302);
    expect(started.headers.get("set-cookie")).toBeTruthy();
  });

  it("leaves the number step's one-time notice of the typed number for the browser's GET /interaction/{id}",
    async () => {
      const client = await createTestClient();
      const cookie = `${browserCookieName()}=${randomToken(32)}`;
      const { row } = await expectInteraction(await get(`/authorize?${new URLSearchParams(requestFor(client))}`,
        { cookie }));
      const typed = "+44 7700 900x12";
      await db.authorizationRequest.update({ where: { id: row.id },
        data: { typedMsisdn: typed, typedAt: new Date() } });
      expectRefused(await head(`/interaction/${row.id}`, { cookie }), "GET");
      expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: row.id } })).typedMsisdn).toBe(typed);
      const page = await get(`/interaction/${row.id}`, { cookie });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(typed);
      expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: row.id } })).typedMsisdn).toBeNull();
    });

  it("answers 405 with Allow on every route and page of the lists, and still answers HEAD on a GET that only reads",
    async () => {
      for (const [path, allow] of Object.entries({ ...HEAD_REFUSED, ...HEAD_REFUSED_PAGES })) {
        const concrete = path.replace(/\[\.\.\.[^\]]+\]/g, "callback/x").replace(/\[[^\]]+\]/g, "abcdefghijklmnopqrstuv");
        expectRefused(await head(concrete), allow);
      }
      const jwks = await head("/jwks");
      expect(jwks.status).toBe(200);
      expect(jwks.headers.get("content-type")).toContain("json");
      expect((await head("/.well-known/openid-configuration")).status).toBe(200);
    });
});
