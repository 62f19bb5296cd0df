import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import {
  authorize, baseUrl, createTestClient, createTestSubscriber, expectCallback, expectErrorPage, expectInteraction,
  requestFor, signedInBrowser, type Client, type Subscriber,
} from "../../support/authorize-support";
import { signInAndConsent } from "../../support/browserless";
import { redeemCode } from "../../support/codes";
import { accountPage, AccountBrowser, signInToAccount } from "./account-support";

/** The self-service account page (issue 17, docs/account.md). */

/** A real sign-in to `client` with consent allowed (remembered), its code redeemed: the app's tokens. */
async function allowApp(client: Client, s: Subscriber, scope = "openid offline_access") {
  const url = `${baseUrl}/authorize?${new URLSearchParams(requestFor(client, { scope }))}`;
  const { callbackUrl } = await signInAndConsent({ authorizationUrl: url, msisdn: s.msisdn });
  const res = await redeemCode(baseUrl, client, callbackUrl.searchParams.get("code")!);
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

function refresh(client: Client, refreshToken: string) {
  return fetch(`${baseUrl}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}` },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
  });
}

async function enrolDevice(s: Subscriber, name = "Test phone") {
  const id = randomToken(12);
  await db.device.create({ data: { id, subscriberId: s.id, name, secretHash: sha256(randomToken(32)) } });
  return id;
}

const location = (res: Response) => new URL(res.headers.get("location")!, baseUrl);

describe("signing in to /account", () => {
  it("goes through /authorize as the built-in public client (PKCE S256, prompt=login), without a consent screen", async () => {
    const s = await createTestSubscriber();
    const browser = new AccountBrowser();
    const start = await browser.get(`${baseUrl}/account?display=touch&ui_locales=fr`);
    expect(start.status).toBe(307);
    expect(location(start).pathname).toBe("/account/start");
    const toAuthorize = await browser.get(start.headers.get("location")!);
    expect(toAuthorize.status).toBe(302);
    const q = location(toAuthorize).searchParams;
    expect(location(toAuthorize).pathname).toBe("/authorize");
    expect(Object.fromEntries(q)).toMatchObject({ client_id: "account", redirect_uri: `${baseUrl}/account/callback`,
      code_challenge_method: "S256", prompt: "login", display: "touch", ui_locales: "fr", acr_values: "2", scope: "openid" });
    expect(browser.setCookies[0]).toMatch(/^account_login=[^;]+; Path=\/account; HttpOnly; SameSite=Lax; Max-Age=600$/);

    const client = await db.client.findUniqueOrThrow({ where: { id: "account" } });
    expect(client).toMatchObject({ isPublic: true, secretHash: null, allowedScopes: "openid", status: "active",
      redirectUris: JSON.stringify([`${baseUrl}/account/callback`]) });

    const { page, browser: signedIn } = await signInToAccount(s, { query: "?display=touch&ui_locales=fr" });
    expect(page.html).toContain("Votre compte");
    expect(page.html).toContain('lang="fr"');
    expect(new URL(page.url).searchParams.get("display")).toBe("touch");
    const session = signedIn.setCookies.find((c) => c.startsWith("account_session="))!;
    expect(session).toMatch(/^account_session=[A-Za-z0-9_-]{43}; Path=\/account; HttpOnly; SameSite=Lax; Max-Age=900$/);
    // Stored hashed: the cookie's value is an access token of the account client, at rest as SHA-256 only.
    const token = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(signedIn.cookies.get("account_session")!) } });
    expect(token).toMatchObject({ clientId: "account", subscriberId: s.id, acr: "2" });
    // Never cached, never framed, forms only to ourselves.
    const again = await signedIn.get(`${baseUrl}/account`);
    expect(again.status).toBe(200);
    expect(again.headers.get("cache-control")).toContain("no-store");
    expect(again.headers.get("x-frame-options")).toBe("DENY");
    expect(again.headers.get("content-security-policy")).toContain("form-action 'self'");
    // The account client never asks consent and is remembered nowhere.
    expect(await db.grant.count({ where: { subscriberId: s.id } })).toBe(0);
  });

  it("refuses the account client for anyone else's redirect URI (error page, never a redirect)", async () => {
    await new AccountBrowser().follow(`${baseUrl}/account`); // makes sure the client exists
    const res = await authorize({ client_id: "account", redirect_uri: "https://evil.example/cb", response_type: "code",
      scope: "openid", state: "s", nonce: "n", code_challenge: "x".repeat(43), code_challenge_method: "S256" });
    await expectErrorPage(res);
  });

  it("refuses a callback whose state is not this browser's: no session", async () => {
    const browser = new AccountBrowser();
    await browser.get(`${baseUrl}/account/start`);
    const res = await browser.get(`${baseUrl}/account/callback?code=abc&state=${randomToken(32)}&iss=${encodeURIComponent(baseUrl)}`);
    expect(res.status).toBe(303);
    expect(location(res).searchParams.get("e")).toBe("sign_in_failed");
    expect(browser.cookies.has("account_session")).toBe(false);
    const page = await accountPage(browser, "?e=sign_in_failed");
    expect(page.html).toContain("The sign-in did not work");
  });

  it("asks the PIN at level=3", async () => {
    const s = await createTestSubscriber();
    const { browser } = await signInToAccount(s, { query: "?level=3" });
    const token = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(browser.cookies.get("account_session")!) } });
    expect(token.acr).toBe("3");
  });
});

describe("the apps the subscriber has allowed", () => {
  it("lists them; forget withdraws the consent, revokes the app's tokens, is audited, and consent is asked again", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const tokens = await allowApp(client, s);
    const request = requestFor(client, { scope: "openid offline_access" });
    // Before: the remembered consent answers a signed-in browser at once.
    const { browserId } = await signedInBrowser(s);
    expectCallback(await authorize(request, { browserId }), client, request.state);

    const { browser, page, csrf } = await signInToAccount(s);
    expect(page.html).toContain(client.name);
    expect(page.html).toContain("Keep access when you are not using the app");
    expect(page.html).toContain(`Forget ${client.name}`);
    const res = await browser.post("/account/forget", { csrf_token: csrf, client_id: client.id, display: "page", ui_locales: "en" });
    expect(res.status).toBe(303);
    expect(location(res).searchParams.get("done")).toBe("forgotten");

    // The refresh token no longer works (invalid_grant), nor the access token.
    const refreshed = await refresh(client, tokens.refresh_token);
    expect(refreshed.status).toBe(400);
    expect(((await refreshed.json()) as { error: string }).error).toBe("invalid_grant");
    const userinfo = await fetch(`${baseUrl}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(userinfo.status).toBe(401);
    expect(await db.grant.count({ where: { subscriberId: s.id, clientId: client.id } })).toBe(0);
    // Audited, under the subscriber's pseudonym.
    const event = await db.auditEvent.findFirstOrThrow({ where: { type: "consent_withdrawn", clientId: client.id } });
    expect(event.subscriberRef).toBe(pseudonymiseSubscriber(s.id));
    expect(JSON.parse(event.detail!)).toMatchObject({ by: "subscriber", scope: "openid offline_access" });
    // The next sign-in to the app asks consent again.
    await expectInteraction(await authorize(requestFor(client, { scope: "openid offline_access" }), { browserId }));

    const after = await accountPage(browser, `?done=forgotten`);
    expect(after.html).toContain("The app was forgotten.");
    expect(after.html).not.toContain(`Forget ${client.name}`);
    // Forgetting it twice: not found, nothing else happens.
    const again = await browser.post("/account/forget", { csrf_token: csrf, client_id: client.id });
    expect(location(again).searchParams.get("e")).toBe("not_found");
  });

  it("ten simultaneous Forget posts for one app: one forgets, revokes and audits; the others find nothing", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    await allowApp(client, s);
    const { browser, csrf } = await signInToAccount(s);
    const answers = await Promise.all(Array.from({ length: 10 },
      () => browser.post("/account/forget", { csrf_token: csrf, client_id: client.id })));
    const outcomes = answers.map((res) => {
      expect(res.status).toBe(303);
      return location(res).searchParams.get("done") ?? location(res).searchParams.get("e");
    });
    expect(outcomes.filter((o) => o === "forgotten")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "not_found")).toHaveLength(9);
    expect(await db.auditEvent.count({ where: { type: "consent_withdrawn", clientId: client.id } })).toBe(1);
    expect(await db.refreshToken.count({ where: { clientId: client.id, subscriberId: s.id, revokedAt: null } })).toBe(0);
  });

  it("shows the recent sign-ins: time (UTC), app and level", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    await allowApp(client, s, "openid");
    const { page } = await signInToAccount(s);
    expect(page.html).toContain("Recent sign-ins");
    expect(page.html).toMatch(new RegExp(`<td[^>]*>\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}</td><td[^>]*>${client.name}</td><td>2</td>`));
    expect(page.html).toMatch(/<td[^>]*>This account page<\/td><td>2<\/td>/);
    expect(page.html).toContain("Times are in UTC.");
  });
});

describe("a subscriber sees and acts on their own data only", () => {
  it("refuses another subscriber's app and handset ids in the form", async () => {
    const client = await createTestClient();
    const [alice, bob] = [await createTestSubscriber(), await createTestSubscriber()];
    const bobTokens = await allowApp(client, bob);
    const bobDevice = await enrolDevice(bob, "Bob's phone");
    const { browser, page, csrf } = await signInToAccount(alice);
    expect(page.html).not.toContain(client.name);
    expect(page.html).not.toContain("Bob&#x27;s phone");
    expect(page.html).not.toContain("Bob's phone");

    const forget = await browser.post("/account/forget", { csrf_token: csrf, client_id: client.id });
    expect(location(forget).searchParams.get("e")).toBe("not_found");
    const remove = await browser.post("/account/remove-handset", { csrf_token: csrf, device_id: bobDevice });
    expect(location(remove).searchParams.get("e")).toBe("not_found");

    expect(await db.grant.count({ where: { subscriberId: bob.id, clientId: client.id } })).toBe(1);
    expect((await db.device.findUniqueOrThrow({ where: { id: bobDevice } })).revokedAt).toBeNull();
    expect((await refresh(client, bobTokens.refresh_token)).status).toBe(200);
  });
});

describe("handsets", () => {
  it("lists the subscriber's handsets; remove revokes one and is audited", async () => {
    const s = await createTestSubscriber();
    const device = await enrolDevice(s, "Kitchen phone");
    const { browser, page, csrf } = await signInToAccount(s);
    expect(page.html).toContain("Remove Kitchen phone");
    const res = await browser.post("/account/remove-handset", { csrf_token: csrf, device_id: device });
    expect(location(res).searchParams.get("done")).toBe("removed");
    expect((await db.device.findUniqueOrThrow({ where: { id: device } })).revokedAt).not.toBeNull();
    expect(await db.auditEvent.count({ where: { type: "device_removed", subscriberRef: pseudonymiseSubscriber(s.id) } }))
      .toBe(1);
    expect((await accountPage(browser)).html).not.toContain("Kitchen phone");
  });
});

describe("the account session", () => {
  it("refuses a post without the session's CSRF token, with another session's, or from another site", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    await allowApp(client, s, "openid");
    const { browser, csrf } = await signInToAccount(s);
    const other = await signInToAccount(await createTestSubscriber());
    for (const fields of [{}, { csrf_token: "x" }, { csrf_token: other.csrf }] as Record<string, string>[]) {
      const res = await browser.post("/account/forget", { ...fields, client_id: client.id });
      expect(res.status).toBe(403);
    }
    const crossSite = await browser.post("/account/forget", { csrf_token: csrf, client_id: client.id },
      { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(await db.grant.count({ where: { subscriberId: s.id, clientId: client.id } })).toBe(1);
  });

  it("ends 15 minutes after the sign-in: the page asks to sign in again and actions do nothing", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    await allowApp(client, s, "openid");
    const { browser, csrf } = await signInToAccount(s);
    const tokenHash = sha256(browser.cookies.get("account_session")!);
    await db.accessToken.update({ where: { tokenHash }, data: { createdAt: new Date(Date.now() - 15 * 60_000 - 1000) } });

    const page = await browser.get(`${baseUrl}/account`);
    expect(page.status).toBe(307);
    expect(location(page).pathname).toBe("/account/start");
    const res = await browser.post("/account/forget", { csrf_token: csrf, client_id: client.id });
    expect(res.status).toBe(303);
    expect(location(res).searchParams.get("e")).toBe("expired");
    expect(await db.grant.count({ where: { subscriberId: s.id, clientId: client.id } })).toBe(1);
  });

  it("sign-out revokes the session: the same cookie opens nothing afterwards", async () => {
    const s = await createTestSubscriber();
    const { browser, csrf } = await signInToAccount(s);
    const cookie = browser.cookies.get("account_session")!;
    const res = await browser.post("/account/sign-out", { csrf_token: csrf });
    expect(location(res).searchParams.get("done")).toBe("signed_out");
    expect(browser.setCookies.at(-1)).toMatch(/^account_session=; Path=\/account; .*Max-Age=0/);
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(cookie) } })).revokedAt).not.toBeNull();
    const replay = await fetch(`${baseUrl}/account`, { redirect: "manual", headers: { cookie: `account_session=${cookie}` } });
    expect(replay.status).toBe(307);
    const signedOut = await accountPage(browser, "?done=signed_out");
    expect(signedOut.html).toContain("You are signed out of your account page.");
    expect(signedOut.html).toContain('href="/account/start?');
  });
});
