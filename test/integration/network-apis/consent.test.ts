import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { createClient } from "@/lib/clients/create-client";
import { randomToken } from "@/lib/crypto";
import { db } from "@/lib/db";
import { settleBackchannelRequest } from "@/lib/ciba/settle-backchannel-request";
import { needsApiConsent } from "@/lib/api-consent/needs-api-consent";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { csrfOf, getInteraction, postStep } from "@/e2e/fixtures/interaction-http";
import {
  authorize, baseUrl, createTestSubscriber, expectCallback, expectErrorRedirect, expectInteraction, grant, requestFor,
  resume, signedInBrowser, type Client, type Subscriber,
} from "../../support/authorize-support";
import { createApiClient, declarePurpose, insertApiToken } from "../../support/camara-support";
import { pendingBackchannelRequest } from "../../support/ciba-rows";
import { accountPage, signInToAccount } from "../account/account-support";

/**
 * The subscriber's consent to network APIs per client and purpose (docs/network-apis.md "Consent and withdrawal"):
 * asked on the consent screen when the operator's declared basis is `consent`, remembered per purpose, recorded by a
 * CIBA handset approval, required by the JWT-bearer grant, and withdrawn from the account page (the client's tokens
 * carrying the purpose revoked).
 */
const KYC = "kyc-match:match";
const P1 = "dpv:IdentityVerification"; //           consent
const P2 = "dpv:RequestedServiceProvision"; //      consent, a second purpose
const LI = "dpv:ServiceProvision"; //               legitimate interest
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

beforeAll(async () => {
  await declarePurpose(KYC, P1, "consent");
  await declarePurpose(KYC, P2, "consent");
  await declarePurpose(KYC, LI, "legitimate_interest");
  await declarePurpose("sim-swap:check", LI, "legitimate_interest");
});

/** A client allowed KYC Match for the three purposes, a subscriber signed in who already allowed `openid`. */
async function setUp() {
  const client = await createApiClient({ scopes: [KYC, "sim-swap:check", P1, P2, LI] });
  const subscriber = await createTestSubscriber();
  await grant(subscriber, client, "openid");
  const { browserId } = await signedInBrowser(subscriber);
  return { client, subscriber, browserId };
}

/** Answers the consent screen of `res` (a redirect to it) with `decision`; returns the page's HTML and the answer. */
async function answerConsent(res: Response, browserId: string, decision: "allow" | "deny", ui = "") {
  const { row } = await expectInteraction(res);
  const cookie = `${browserCookieName()}=${browserId}`;
  const page = await getInteraction(baseUrl, row.id, cookie, ui);
  expect(page.status).toBe(200);
  const post = await postStep(baseUrl, row.id, "consent", { cookie, fields: { csrf_token: csrfOf(page.html), decision } });
  expect(post.status).toBe(303);
  return { html: page.html, back: await resume(row.id, browserId) };
}

const consentRow = (s: Subscriber, c: Client, purpose: string) => db.apiConsent.findUnique({
  where: { subscriberId_clientId_purpose: { subscriberId: s.id, clientId: c.id, purpose } } });

describe("consent at /authorize", () => {
  it("is asked once per client and purpose (purpose and API in plain words), then remembered", async () => {
    const { client, subscriber, browserId } = await setUp();
    const q = requestFor(client, { scope: `openid ${KYC} ${P1}` });
    const { html, back } = await answerConsent(await authorize(q, { browserId }), browserId, "allow");
    expect(html).toContain("verifying your identity");
    expect(html).toContain("Check the details you give it against the details we hold for your line");
    expect(html).not.toContain(P1);
    expect(expectCallback(back, client, q.state).get("code")).toBeTruthy();
    const row = await consentRow(subscriber, client, P1);
    expect(row).toMatchObject({ scope: KYC, withdrawnAt: null });

    // Remembered: the same request is answered at once.
    const again = requestFor(client, { scope: `openid ${KYC} ${P1}` });
    expect(expectCallback(await authorize(again, { browserId }), client, again.state).get("code")).toBeTruthy();

    // A second purpose asks again; with prompt=none it is consent_required.
    const none = requestFor(client, { scope: `openid ${KYC} ${P2}`, prompt: "none" });
    expectErrorRedirect(await authorize(none, { browserId }), client, none.state, "consent_required");
    const second = requestFor(client, { scope: `openid ${KYC} ${P2}` });
    await expectInteraction(await authorize(second, { browserId }));
  });

  it("the consent screen in French", async () => {
    const { client, browserId } = await setUp();
    const q = requestFor(client, { scope: `openid ${KYC} ${P1}`, ui_locales: "fr" });
    const { row } = await expectInteraction(await authorize(q, { browserId }));
    const page = await getInteraction(baseUrl, row.id, `${browserCookieName()}=${browserId}`);
    expect(page.html).toContain("la vérification de votre identité");
    expect(page.html).toContain("Comparer les informations que vous lui donnez");
  });

  it("a denial records nothing", async () => {
    const { client, subscriber, browserId } = await setUp();
    const q = requestFor(client, { scope: `openid ${KYC} ${P1}` });
    const { back } = await answerConsent(await authorize(q, { browserId }), browserId, "deny");
    expectErrorRedirect(back, client, q.state, "access_denied");
    expect(await consentRow(subscriber, client, P1)).toBeNull();
  });

  it("a legitimate-interest basis asks nothing (prompt=none gets a code) and records nothing", async () => {
    const { client, subscriber, browserId } = await setUp();
    const q = requestFor(client, { scope: `openid sim-swap:check ${LI}`, prompt: "none" });
    expect(expectCallback(await authorize(q, { browserId }), client, q.state).get("code")).toBeTruthy();
    expect(await consentRow(subscriber, client, LI)).toBeNull();
  });
});

describe("withdrawal from the account page", () => {
  it("lists the consent per app and purpose, withdraws it (CSRF-protected form) and revokes the tokens carrying it",
    async () => {
      const { client, subscriber, browserId } = await setUp();
      const q = requestFor(client, { scope: `openid ${KYC} ${P1}` });
      await answerConsent(await authorize(q, { browserId }), browserId, "allow");
      const withPurpose = await insertApiToken({ clientId: client.id, subscriberId: subscriber.id,
        scope: `openid ${KYC} ${P1}` });
      const other = await insertApiToken({ clientId: client.id, subscriberId: subscriber.id, scope: "openid" });

      const { browser, page, csrf } = await signInToAccount(subscriber);
      expect(page.html).toContain("verifying your identity");
      expect(page.html).toContain(`name="purpose" value="${P1}"`);
      const fr = await accountPage(browser, "?ui_locales=fr");
      expect(fr.html).toContain("la vérification de votre identité");
      expect(fr.html).toContain("Retirer ce consentement");

      // Without the CSRF token: refused, nothing withdrawn.
      const forged = await browser.post("/account/withdraw-consent", { client_id: client.id, purpose: P1 });
      expect(forged.status).not.toBe(200);
      expect((await consentRow(subscriber, client, P1))!.withdrawnAt).toBeNull();

      const res = await browser.post("/account/withdraw-consent", { csrf_token: csrf, client_id: client.id, purpose: P1 });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toContain("done=withdrawn");
      expect((await consentRow(subscriber, client, P1))!.withdrawnAt).not.toBeNull();

      const introspect = async (token: string) => (await (await fetch(`${baseUrl}/introspect`, {
        method: "POST", body: new URLSearchParams({ token }),
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client.id, client.secret!) },
      })).json() as { active: boolean });
      expect((await introspect(withPurpose)).active).toBe(false);
      expect((await introspect(other)).active).toBe(true);
      const audit = await db.auditEvent.findFirst({ where: { type: "consent_withdrawn", clientId: client.id } });
      expect(audit).not.toBeNull();

      // Withdrawn again: not found; and the next request asks again.
      const twice = await browser.post("/account/withdraw-consent", { csrf_token: csrf, client_id: client.id, purpose: P1 });
      expect(twice.headers.get("location")).toContain("e=not_found");
      await expectInteraction(await authorize(requestFor(client, { scope: `openid ${KYC} ${P1}` }), { browserId }));
    });

  it("another subscriber's consent cannot be withdrawn", async () => {
    const { client, subscriber, browserId } = await setUp();
    await answerConsent(await authorize(requestFor(client, { scope: `openid ${KYC} ${P1}` }), { browserId }),
      browserId, "allow");
    const intruder = await createTestSubscriber();
    const { browser, csrf } = await signInToAccount(intruder);
    const res = await browser.post("/account/withdraw-consent", { csrf_token: csrf, client_id: client.id, purpose: P1 });
    expect(res.headers.get("location")).toContain("e=not_found");
    expect((await consentRow(subscriber, client, P1))!.withdrawnAt).toBeNull();
  });
});

describe("CIBA", () => {
  it("the handset approval of a request with consent-based API scopes records the consent", async () => {
    const client = await createApiClient({ scopes: [KYC, P1] });
    const subscriber = await createTestSubscriber();
    const scope = `openid ${KYC} ${P1}`;
    expect(await needsApiConsent({ subscriberId: subscriber.id, clientId: client.id, scopes: scope.split(" ") })).toBe(true);
    const pending = await pendingBackchannelRequest({ client, subscriber, scope });
    const settled = await db.$transaction((tx) => settleBackchannelRequest(tx, { requestId: pending.id,
      settlement: { outcome: "approved", acr: "2", amr: ["pin"] }, at: new Date() }));
    expect(settled).toBe(true);
    expect(await consentRow(subscriber, client, P1)).toMatchObject({ scope: KYC, withdrawnAt: null });
    expect(await needsApiConsent({ subscriberId: subscriber.id, clientId: client.id, scopes: scope.split(" ") })).toBe(false);
  });

  it("a denial records nothing", async () => {
    const client = await createApiClient({ scopes: [KYC, P1] });
    const subscriber = await createTestSubscriber();
    const pending = await pendingBackchannelRequest({ client, subscriber, scope: `openid ${KYC} ${P1}` });
    await db.$transaction((tx) => settleBackchannelRequest(tx, { requestId: pending.id, settlement: { outcome: "denied" },
      at: new Date() }));
    expect(await consentRow(subscriber, client, P1)).toBeNull();
  });
});

describe("JWT-bearer", () => {
  async function bearer() {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = `k-${randomToken(4)}`;
    const { client, clientSecret } = await createClient({
      name: `Jbn${randomToken(6).replace(/[^A-Za-z0-9]/g, "")}`, redirectUris: ["https://rp-jbn.example.test/cb"],
      scopes: ["openid", KYC, "sim-swap:check", P1, LI], jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "ES256" }] },
      grantTypes: [JWT_BEARER],
    });
    const subscriber = await createTestSubscriber();
    const ask = async (scope: string) => {
      const now = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({ iss: client.id, aud: baseUrl, jti: randomUUID(), iat: now, exp: now + 120,
        sub: `tel:+${subscriber.msisdn}`, scope }).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey);
      const res = await fetch(`${baseUrl}/token`, { method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client.id, clientSecret!) },
        body: new URLSearchParams({ grant_type: JWT_BEARER, assertion }) });
      return { status: res.status, body: await res.json() as Record<string, string> };
    };
    return { client, subscriber, ask };
  }

  it("without the subscriber's consent (basis consent): invalid_grant; with it: a token", async () => {
    const { client, subscriber, ask } = await bearer();
    const refused = await ask(`${KYC} ${P1}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_grant");
    await db.apiConsent.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: client.id, purpose: P1,
      scope: KYC } });
    const ok = await ask(`${KYC} ${P1}`);
    expect(ok.status, ok.body.error_description).toBe(200);
    expect(ok.body.scope).toBe(`${KYC} ${P1}`);
  });

  it("a legitimate-interest basis needs no consent: a token", async () => {
    const { ask } = await bearer();
    const ok = await ask(`sim-swap:check ${LI}`);
    expect(ok.status, ok.body.error_description).toBe(200);
  });

  it("a withdrawn consent no longer counts", async () => {
    const { client, subscriber, ask } = await bearer();
    await db.apiConsent.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: client.id, purpose: P1,
      scope: KYC, withdrawnAt: new Date() } });
    expect((await ask(`${KYC} ${P1}`)).body.error).toBe("invalid_grant");
  });
});
