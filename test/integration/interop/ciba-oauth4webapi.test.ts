import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import * as oauth from "oauth4webapi";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { sha256 } from "@/lib/crypto";
import { AUTH_REQ_ID_CLAIM, CIBA_GRANT_TYPE } from "@/lib/ciba/ciba";
import { createTestSubscriber } from "../../support/fixtures";
import { enrolledDevice } from "../../support/mobile-support";
import { answerOnHandset, createCibaClient, handsetRequestOf } from "../../support/ciba-support";
import { notificationReceiver, type ReceivedNotification } from "../../support/ciba-delivery-support";

/**
 * Issue 20, "How it is checked": a standard relying-party library that supports CIBA, oauth4webapi v3, in its
 * documented default configuration (discovery from our metadata, a client secret, its CIBA example's polling
 * loop), against a client registered the way the admin CLI registers one (expires_in in seconds). The test handset
 * is the device app driven over HTTP (the enrolled device's cookie, its answer form). The only setting added to
 * the library's defaults is the one the test server needs: plain http on 127.0.0.1. Ping and push deliver to a
 * small relying-party server in this test. Any rejection by the library is a bug in our service.
 */
const baseUrl = inject("baseUrl");
const issuer = new URL(baseUrl);
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const SCOPE = "openid email mc_identity_phonenumber";

let as: oauth.AuthorizationServer;

/** The relying party's notification endpoint: records every POST, answers 204. */
type Notification = ReceivedNotification;
/** The relying party's notification endpoint (ping and push): records every POST (test/support). */
let rp: Awaited<ReturnType<typeof notificationReceiver>>;
let rpEndpoint = "";

beforeAll(async () => {
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }));
  rp = await notificationReceiver();
  rpEndpoint = `${rp.base}/ciba/notify`;
});

afterAll(() => rp.close());

/** The notification whose body carries `authReqId`, once it arrives (the delivery worker runs after the answer). */
async function notificationFor(authReqId: string, timeoutMs = 20_000): Promise<Notification> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = rp.received.find((n) => n.body.auth_req_id === authReqId);
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no notification for the request within ${timeoutMs} ms (${rp.received.length} received)`);
    await new Promise<void>((r) => setTimeout(r, 50));
  }
}

const wait = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));

/** The subscriber approves on the handset: its page (/handset) lists the request with the binding message. */
async function approveOnHandset(authReqId: string, cookie: string, bindingMessage: string) {
  const request = await handsetRequestOf(sha256(authReqId));
  const page = await fetch(`${baseUrl}/handset`, { headers: { cookie } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(bindingMessage);
  const answer = await answerOnHandset(request.id, cookie, { decision: "approve" });
  expect(answer.status).toBe(303);
  expect(new URL(answer.headers.get("location")!, baseUrl).searchParams.get("result")).toBe("approved_backchannel");
}

async function premiumInfo(accessToken: string) {
  const res = await fetch(new URL("/premiuminfo", baseUrl), { headers: { authorization: `Bearer ${accessToken}` } });
  expect(res.status).toBe(200);
  return res.json() as Promise<Record<string, unknown>>;
}

/** What the id_token of a CIBA grant carries, as from the code flow. */
function expectCodeFlowClaims(claims: oauth.IDToken, clientId: string) {
  expect(claims).toMatchObject({ iss: baseUrl, aud: clientId, acr: "2" });
  expect(claims.sub).toMatch(/^.{16,}$/);
  expect(typeof claims.auth_time).toBe("number");
  expect(Array.isArray(claims.amr)).toBe(true);
}

/** at_hash (OpenID Connect Core §3.1.3.6): the left half of the access token's hash with the id_token's algorithm. */
function atHash(accessToken: string, alg: string) {
  const bits = Number(/\d{3}$/.exec(alg)?.[0] ?? "256");
  const digest = createHash(`sha${bits}`).update(accessToken).digest();
  return digest.subarray(0, digest.length / 2).toString("base64url");
}

describe("oauth4webapi v3 CIBA, documented defaults, against our metadata", () => {
  it("discovers the backchannel endpoint, the CIBA grant and the three delivery modes", () => {
    expect(as.backchannel_authentication_endpoint).toBe(new URL("/bc-authorize", baseUrl).href);
    expect(as.grant_types_supported).toContain(CIBA_GRANT_TYPE);
    expect(as.backchannel_token_delivery_modes_supported).toEqual(expect.arrayContaining(["poll", "ping", "push"]));
    expect(as.backchannel_user_code_parameter_supported).toBe(true);
  });

  it("poll mode (client_secret_basic): pending polls at `interval`, the handset approves, tokens; userinfo and premium info", async () => {
    const rp = await createCibaClient({ mode: "poll", expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber();
    const device = await enrolledDevice(subscriber);
    const c: oauth.Client = { client_id: rp.id };
    const clientAuth = oauth.ClientSecretBasic(rp.secret!);
    const bindingMessage = `Poll ${Math.random().toString(36).slice(2, 6)}`;

    const started = await oauth.processBackchannelAuthenticationResponse(as, c,
      await oauth.backchannelAuthenticationRequest(as, c, clientAuth,
        { scope: SCOPE, login_hint: `tel:+${subscriber.msisdn}`, binding_message: bindingMessage }, insecure));
    expect(started.auth_req_id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(started.expires_in).toBeGreaterThan(0);
    expect(started.expires_in).toBeLessThanOrEqual(600);
    let interval = started.interval ?? 5;
    expect(interval).toBeGreaterThanOrEqual(1);

    // The library's CIBA example: wait `interval`, poll; authorization_pending → again, slow_down → interval + 5.
    const seen: string[] = [];
    let approved = false;
    let result: oauth.TokenEndpointResponse | undefined;
    while (!result) {
      await wait(interval);
      const response = await oauth.backchannelAuthenticationGrantRequest(as, c, clientAuth, started.auth_req_id, insecure);
      try {
        result = await oauth.processBackchannelAuthenticationGrantResponse(as, c, response);
      } catch (err) {
        if (!(err instanceof oauth.ResponseBodyError)) throw err;
        seen.push(err.error);
        if (err.error === "slow_down") interval += 5;
        else if (err.error !== "authorization_pending") throw err;
        if (seen.length > 6) throw new Error(`still no tokens after ${seen.join(", ")}`);
        if (!approved) {
          approved = true;
          await approveOnHandset(started.auth_req_id, device, bindingMessage);
        }
      }
    }
    // Polling at the announced interval never earns slow_down; the poll before the answer was pending.
    expect(seen[0]).toBe("authorization_pending");
    expect(seen).not.toContain("slow_down");

    expect(result.token_type.toLowerCase()).toBe("bearer");
    expect(result.expires_in).toBe(3600);
    expect(result.refresh_token).toBeUndefined(); // no offline_access asked
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expectCodeFlowClaims(claims, rp.id);

    const userInfo = await oauth.processUserInfoResponse(as, c, claims.sub,
      await oauth.userInfoRequest(as, c, result.access_token, insecure));
    expect(userInfo).toMatchObject({ sub: claims.sub, email: "alice@example.test" });
    expect(await premiumInfo(result.access_token)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

    // One redemption only: the same auth_req_id again is refused with the library's error.
    await wait(interval);
    const again = await oauth.backchannelAuthenticationGrantRequest(as, c, clientAuth, started.auth_req_id, insecure);
    await expect(oauth.processBackchannelAuthenticationGrantResponse(as, c, again)).rejects.toBeInstanceOf(oauth.ResponseBodyError);
  }, 60_000);

  it("ping mode (client_secret_post): the notification with the client's bearer token, then the redemption", async () => {
    const rp = await createCibaClient({ mode: "ping", notificationEndpoint: rpEndpoint, expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber();
    const device = await enrolledDevice(subscriber);
    const c: oauth.Client = { client_id: rp.id };
    const clientAuth = oauth.ClientSecretPost(rp.secret!);
    const notificationToken = `ping-${sha256(Math.random().toString()).slice(0, 24)}`;
    const bindingMessage = `Ping ${Math.random().toString(36).slice(2, 6)}`;

    const started = await oauth.processBackchannelAuthenticationResponse(as, c,
      await oauth.backchannelAuthenticationRequest(as, c, clientAuth, { scope: `${SCOPE} offline_access`,
        login_hint: `MSISDN:${subscriber.msisdn}`, binding_message: bindingMessage,
        client_notification_token: notificationToken }, insecure));
    await approveOnHandset(started.auth_req_id, device, bindingMessage);

    const ping = await notificationFor(started.auth_req_id);
    expect(ping.authorization).toBe(`Bearer ${notificationToken}`);
    expect(ping.contentType).toMatch(/^application\/json/);
    expect(ping.body).toEqual({ auth_req_id: started.auth_req_id });

    const result = await oauth.processBackchannelAuthenticationGrantResponse(as, c,
      await oauth.backchannelAuthenticationGrantRequest(as, c, clientAuth, started.auth_req_id, insecure));
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expectCodeFlowClaims(claims, rp.id);
    expect(result.refresh_token).toBeTruthy(); // offline_access asked and granted
    expect(await premiumInfo(result.access_token)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });
    const refreshed = await oauth.processRefreshTokenResponse(as, c,
      await oauth.refreshTokenGrantRequest(as, c, clientAuth, result.refresh_token!, insecure));
    expect(oauth.getValidatedIdTokenClaims(refreshed)?.sub).toBe(claims.sub);
  }, 60_000);

  it("push mode: the token response pushed to the client; its id_token carries at_hash and the auth_req_id claim", async () => {
    const rp = await createCibaClient({ mode: "push", notificationEndpoint: rpEndpoint, expiresInFormat: "seconds" });
    const subscriber = await createTestSubscriber();
    const device = await enrolledDevice(subscriber);
    const c: oauth.Client = { client_id: rp.id };
    const clientAuth = oauth.ClientSecretBasic(rp.secret!);
    const notificationToken = `push-${sha256(Math.random().toString()).slice(0, 24)}`;
    const bindingMessage = `Push ${Math.random().toString(36).slice(2, 6)}`;

    const started = await oauth.processBackchannelAuthenticationResponse(as, c,
      await oauth.backchannelAuthenticationRequest(as, c, clientAuth, { scope: SCOPE,
        login_hint: `tel:+${subscriber.msisdn}`, binding_message: bindingMessage,
        client_notification_token: notificationToken }, insecure));
    await approveOnHandset(started.auth_req_id, device, bindingMessage);

    const push = await notificationFor(started.auth_req_id);
    expect(push.authorization).toBe(`Bearer ${notificationToken}`);
    expect(push.contentType).toMatch(/^application\/json/);
    const body = push.body as Record<string, string>;
    expect(body).toMatchObject({ auth_req_id: started.auth_req_id, expires_in: 3600 });
    expect(body.token_type?.toLowerCase()).toBe("bearer");

    // The pushed body is a token response: the library validates it (id_token claims, types) as one.
    const result = await oauth.processBackchannelAuthenticationGrantResponse(as, c, new Response(JSON.stringify(body),
      { status: 200, headers: { "content-type": "application/json" } }));
    const claims = oauth.getValidatedIdTokenClaims(result)!;
    expectCodeFlowClaims(claims, rp.id);

    // Signature against our JWKS, and the two claims CIBA Core §10.3.1 requires of a pushed id_token.
    const jwks = (await (await fetch(as.jwks_uri!)).json()) as JSONWebKeySet;
    const { payload } = await jwtVerify(body.id_token!, createLocalJWKSet(jwks), { issuer: baseUrl, audience: rp.id });
    expect(payload[AUTH_REQ_ID_CLAIM]).toBe(started.auth_req_id);
    expect(payload.at_hash).toBe(atHash(body.access_token!, decodeProtectedHeader(body.id_token!).alg!));

    const userInfo = await oauth.processUserInfoResponse(as, c, claims.sub,
      await oauth.userInfoRequest(as, c, body.access_token!, insecure));
    expect(userInfo).toMatchObject({ sub: claims.sub, email: "alice@example.test" });
    expect(await premiumInfo(body.access_token!)).toMatchObject({ phone_number: `+${subscriber.msisdn}` });

    // Push mode: the token endpoint does not also hand out the tokens (CIBA Core §10.3: the grant is poll and ping's).
    const polled = await oauth.backchannelAuthenticationGrantRequest(as, c, clientAuth, started.auth_req_id, insecure);
    await expect(oauth.processBackchannelAuthenticationGrantResponse(as, c, polled)).rejects.toBeInstanceOf(oauth.ResponseBodyError);
  }, 60_000);
});
