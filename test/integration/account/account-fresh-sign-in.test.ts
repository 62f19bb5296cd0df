import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import {
  baseUrl, createTestClient, createTestSubscriber, expectCallback, expectInteraction, grant, requestFor, signedInBrowser,
} from "../../support/authorize-support";
import { issueTestCode } from "../../support/codes";
import { authorizeFrom, mapRange } from "../../support/network-support";
import { AccountBrowser } from "./account-support";

/**
 * The account page opens only after a fresh sign-in with the text-message code (issue 33 item 1, docs/account.md):
 * the account client is prompt=login whatever its query says and never signed in by the network
 * (RegisteredClient.freshCodeSignIn), and the callback checks the session behind its code.
 */
const location = (res: Response) => new URL(res.headers.get("location")!, baseUrl);

/** /account/start in `browser`: the /authorize address it sends to, as a query object. */
async function startAccountSignIn(browser: AccountBrowser): Promise<Record<string, string>> {
  const res = await browser.get(`${baseUrl}/account/start`);
  expect(res.status).toBe(302);
  expect(location(res).pathname).toBe("/authorize");
  return Object.fromEntries(location(res).searchParams);
}

describe("the account client is always a fresh sign-in at /authorize", () => {
  it("a browser holding another app's operator session gets the sign-in screen, even without prompt=login", async () => {
    const s = await createTestSubscriber();
    // A live text-message sign-in made for another app in this browser (a shared or borrowed phone).
    const { browserId } = await signedInBrowser(s);
    const browser = new AccountBrowser();
    browser.cookies.set(browserCookieName(), browserId);
    const query = await startAccountSignIn(browser);
    expect(query.prompt).toBe("login");
    for (const prompt of [undefined, "consent"]) {
      const { prompt: _sent, ...rest } = query;
      const tried = prompt ? { ...rest, prompt } : rest;
      const page = await browser.follow(`${baseUrl}/authorize?${new URLSearchParams(tried)}`);
      expect(new URL(page.url).pathname, String(prompt)).toMatch(/^\/interaction\/[A-Za-z0-9_-]{22}$/);
      expect(page.html).toMatch(/action="[^"]*\/interaction\/[^/"]+\/msisdn"/);
      // Not even the choice of the session already there: the code is asked.
      expect(page.html).not.toMatch(/\/interaction\/[^/"]+\/select"/);
      // No "approve on your phone" either: the account page is opened by the text-message code only.
      expect(page.html).not.toContain('name="via" value="phone"');
      expect(browser.cookies.has("account_session")).toBe(false);
    }
    expect(await db.authorizationCode.count({ where: { clientId: "account", subscriberId: s.id } })).toBe(0);
  });

  it("prompt=none is login_required and prompt=mobile is refused: never a code without the text message", async () => {
    const s = await createTestSubscriber();
    const { browserId } = await signedInBrowser(s);
    const browser = new AccountBrowser();
    browser.cookies.set(browserCookieName(), browserId);
    const query = await startAccountSignIn(browser);
    for (const [prompt, error] of [["none", "login_required"], ["mobile", "invalid_request"]] as const) {
      const res = await browser.get(`${baseUrl}/authorize?${new URLSearchParams({ ...query, prompt,
        login_hint: `MSISDN:${s.msisdn}` })}`);
      expect(res.status, prompt).toBe(302);
      expect(location(res).pathname).toBe("/account/callback");
      expect(location(res).searchParams.get("error")).toBe(error);
      expect(location(res).searchParams.get("code")).toBeNull();
    }
  });

  it("a request from the subscriber's data session is not signed in by the network", async () => {
    const s = await createTestSubscriber();
    const address = "127.0.0.133";
    await mapRange(address, s.msisdn);
    const query = await startAccountSignIn(new AccountBrowser());
    for (const prompt of [undefined, "login"]) {
      const { prompt: _sent, ...rest } = query;
      const res = await authorizeFrom(prompt ? { ...rest, prompt } : rest, { from: address });
      const { row } = await expectInteraction(res);
      expect(row.status, String(prompt)).toBe("pending");
      expect(row.sessionId).toBeNull();
    }
    expect(await db.session.count({ where: { subscriberId: s.id, amr: "nba" } })).toBe(0);
    expect(await db.authorizationCode.count({ where: { clientId: "account", subscriberId: s.id } })).toBe(0);
    // The same data session does sign an ordinary app in silently: the rule is the account client's.
    const client = await createTestClient();
    await grant(s, client);
    const app = requestFor(client);
    expectCallback(await authorizeFrom(app, { from: address }), client, app.state);
    expect(await db.session.count({ where: { subscriberId: s.id, amr: "nba" } })).toBe(1);
  });
});

describe("the account callback checks the session behind the code", () => {
  /** A code for the account client, made for this browser's sign-in (its nonce and PKCE challenge). */
  async function codeFor(query: Record<string, string>, subscriberId: string, over: { amr: string; authTime: Date;
    nonce?: string }) {
    return issueTestCode({ client: { id: "account", redirectUri: query.redirect_uri! }, subscriber: { id: subscriberId },
      nonce: over.nonce ?? query.nonce!, codeChallenge: query.code_challenge!, amr: over.amr, authTime: over.authTime });
  }

  it("refuses a code from the network, a handset approval, an earlier sign-in or another start: no session", async () => {
    const s = await createTestSubscriber();
    const cases: Array<[string, { amr: string; authTime: Date; nonce?: string }]> = [
      ["network", { amr: "nba", authTime: new Date() }],
      ["handset", { amr: "mca", authTime: new Date() }],
      ["handset at level 3", { amr: "mca pin", authTime: new Date() }],
      ["an earlier code sign-in", { amr: "otp sms", authTime: new Date(Date.now() - 60 * 60_000) }],
      ["another start's nonce", { amr: "otp sms", authTime: new Date(), nonce: randomToken(32) }],
    ];
    for (const [name, over] of cases) {
      const browser = new AccountBrowser();
      const query = await startAccountSignIn(browser);
      const code = await codeFor(query, s.id, over);
      const res = await browser.get(`${baseUrl}/account/callback?${new URLSearchParams({ code, state: query.state!,
        iss: baseUrl })}`);
      expect(res.status, name).toBe(303);
      expect(location(res).pathname).toBe("/account");
      expect(location(res).searchParams.get("e"), name).toBe("fresh_sign_in_required");
      expect(browser.cookies.has("account_session"), name).toBe(false);
      // Refused before redemption: no token was issued for it.
      expect((await db.authorizationCode.findUniqueOrThrow({ where: { codeHash: sha256(code) } })).usedAt, name).toBeNull();
      const page = await browser.follow(location(res).toString());
      expect(page.html).toContain("Your account page opens only after you sign in with the code we send you by text");
      expect(page.html).toContain('href="/account/start?');
    }
    expect(await db.accessToken.count({ where: { clientId: "account", subscriberId: s.id } })).toBe(0);
  });

  it("accepts a code sign-in made after the start, at level 2 and 3", async () => {
    const s = await createTestSubscriber();
    for (const amr of ["otp sms", "otp sms pin"]) {
      const browser = new AccountBrowser();
      const query = await startAccountSignIn(browser);
      const code = await codeFor(query, s.id, { amr, authTime: new Date() });
      const res = await browser.get(`${baseUrl}/account/callback?${new URLSearchParams({ code, state: query.state!,
        iss: baseUrl })}`);
      expect(location(res).searchParams.get("e"), amr).toBeNull();
      expect(browser.cookies.has("account_session"), amr).toBe(true);
      const page = await browser.follow(location(res).toString());
      expect(page.html).toContain("Your account");
    }
  });

  it("an account token that is not a code sign-in's opens nothing, however it was obtained", async () => {
    const s = await createTestSubscriber();
    const token = randomToken(32);
    await db.accessToken.create({ data: { tokenHash: sha256(token), clientId: "account", subscriberId: s.id,
      scope: "openid", acr: "2", amr: "nba", authTime: new Date(), expiresAt: new Date(Date.now() + 600_000) } });
    const res = await fetch(`${baseUrl}/account`, { redirect: "manual", headers: { cookie: `account_session=${token}` } });
    expect(res.status).toBe(307);
    expect(location(res).pathname).toBe("/account/start");
  });
});
