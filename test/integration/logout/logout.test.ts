import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { generateKeyPair, SignJWT } from "jose";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { getActiveKey } from "@/lib/keys/key-store";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { pairwiseSubject } from "@/lib/subjects/pairwise-subject";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { obtainTokens } from "../../support/codes";

const baseUrl = inject("baseUrl");
const BYE = "https://rp.example.test/bye";

/** A browser (cookie) holding an open operator session; pass `browserId` to sign a second subscriber in there. */
async function signedInBrowser(browserId = randomToken(32)) {
  const subscriber = await createTestSubscriber();
  const session = await db.session.create({ data: {
    id: randomUUID(), browserIdHash: sha256(browserId), subscriberId: subscriber.id, authTime: new Date(), acr: "2",
    amr: "otp", expiresAt: new Date(Date.now() + 3_600_000) } });
  return { cookie: `${browserCookieName()}=${browserId}`, browserId, subscriber, sessionId: session.id };
}
const isEnded = async (id: string) => (await db.session.findUniqueOrThrow({ where: { id } })).endedAt !== null;
const logout = (query: Record<string, string>, cookie?: string) =>
  fetch(`${baseUrl}/logout?${new URLSearchParams(query)}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
function confirm(fields: Record<string, string>, cookie: string) {
  return fetch(`${baseUrl}/logout`, { method: "POST", redirect: "manual",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
}
/** The hidden fields of the confirmation form. */
function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    // lib/http/html.ts escapes with decimal character references (&#38; for "&").
    out[m[1]!] = m[2]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
  }
  return out;
}

describe("RP-initiated logout with id_token_hint", () => {
  it("ends this browser's sessions and returns to the registered post_logout_redirect_uri with state", async () => {
    const client = await createTestClient();
    const browser = await signedInBrowser();
    const otherBrowser = await signedInBrowser();
    const { id_token } = await obtainTokens(baseUrl, client, browser.subscriber);
    const res = await logout({ id_token_hint: id_token, post_logout_redirect_uri: BYE, state: "s t&ate" }, browser.cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${BYE}?state=s+t%26ate`);
    expect(await isEnded(browser.sessionId)).toBe(true);
    expect(await isEnded(otherBrowser.sessionId)).toBe(false);
  });

  it("accepts an expired hint and a POSTed request, and shows a page without a redirect URI", async () => {
    const client = await createTestClient();
    const browser = await signedInBrowser();
    const key = await getActiveKey("sig");
    const sub = pairwiseSubject({ subscriberId: browser.subscriber.id, sectorIdentifier: "rp.example.test" });
    const expired = await new SignJWT({ azp: client.id }).setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "JWT" })
      .setIssuer(baseUrl).setSubject(sub).setAudience(client.id).setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600).sign(key.privateKey);
    const res = await fetch(`${baseUrl}/logout`, { method: "POST", redirect: "manual",
      headers: { Cookie: browser.cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ id_token_hint: expired }) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain('id="logout-done"');
    expect(await isEnded(browser.sessionId)).toBe(true);
  });

  it("refuses a hint not signed by us, an unregistered redirect URI and a client_id the hint does not name", async () => {
    const client = await createTestClient();
    const other = await createTestClient();
    const browser = await signedInBrowser();
    const { id_token } = await obtainTokens(baseUrl, client, browser.subscriber);
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({}).setProtectedHeader({ alg: "RS256", kid: (await getActiveKey("sig")).kid })
      .setIssuer(baseUrl).setSubject("x").setAudience(client.id).setIssuedAt().setExpirationTime("1h").sign(privateKey);
    const cases: Record<string, string>[] = [
      { id_token_hint: forged, post_logout_redirect_uri: BYE },
      { id_token_hint: "not.a.jwt" },
      { id_token_hint: id_token, post_logout_redirect_uri: "https://evil.example/bye" },
      { id_token_hint: id_token, client_id: other.id, post_logout_redirect_uri: BYE },
      { post_logout_redirect_uri: BYE },
      { client_id: "no-such-client" },
    ];
    for (const query of cases) {
      const res = await logout(query, browser.cookie);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain('id="logout-error"');
    }
    expect(await isEnded(browser.sessionId)).toBe(false);
  });
});

describe("an id_token_hint about someone not signed in in this browser: confirmation page", () => {
  it("a link carrying another subscriber's id_token ends nothing without asking", async () => {
    const client = await createTestClient();
    const victim = await signedInBrowser();
    const attacker = await createTestSubscriber();
    const { id_token } = await obtainTokens(baseUrl, client, attacker); // the attacker's own, genuine id_token
    const page = await logout({ id_token_hint: id_token, post_logout_redirect_uri: BYE, state: "s" }, victim.cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("location")).toBeNull();
    const fields = formFields(await page.text());
    expect(fields).toMatchObject({ client_id: client.id, post_logout_redirect_uri: BYE, state: "s" });
    expect(fields).not.toHaveProperty("id_token_hint");
    expect(await isEnded(victim.sessionId)).toBe(false);

    // the person at the browser decides; the form keeps its CSRF protection
    expect((await confirm({ ...fields, csrf: "forged", decision: "logout" }, victim.cookie)).status).toBe(400);
    expect(await isEnded(victim.sessionId)).toBe(false);
    const res = await confirm({ ...fields, decision: "logout" }, victim.cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${BYE}?state=s`);
    expect(await isEnded(victim.sessionId)).toBe(true);
  });

  it("asks too when the hint's subscriber is signed in in another browser only, or the session has ended", async () => {
    const client = await createTestClient();
    const browser = await signedInBrowser();
    const elsewhere = await signedInBrowser();
    const { id_token } = await obtainTokens(baseUrl, client, elsewhere.subscriber);
    expect((await logout({ id_token_hint: id_token }, browser.cookie)).status).toBe(200);
    expect(await isEnded(browser.sessionId)).toBe(false);
    expect(await isEnded(elsewhere.sessionId)).toBe(false);

    const own = await obtainTokens(baseUrl, client, browser.subscriber);
    await db.session.update({ where: { id: browser.sessionId }, data: { endedAt: new Date() } });
    const html = await (await logout({ id_token_hint: own.id_token }, browser.cookie)).text();
    expect(html).toContain('id="logout-form"');
  });

  it("ends at once when the hint's subscriber is one of several signed in in this browser", async () => {
    const client = await createTestClient();
    const browser = await signedInBrowser();
    const second = await signedInBrowser(browser.browserId);
    const { id_token } = await obtainTokens(baseUrl, client, second.subscriber);
    const res = await logout({ id_token_hint: id_token, post_logout_redirect_uri: BYE }, browser.cookie);
    expect(res.status).toBe(303);
    expect(await isEnded(second.sessionId)).toBe(true);
    expect(await isEnded(browser.sessionId)).toBe(true);
  });
});

describe("logout without id_token_hint: confirmation page", () => {
  it("asks first, then ends the sessions on a confirmed POST with the CSRF token", async () => {
    const client = await createTestClient();
    const browser = await signedInBrowser();
    const page = await logout({ client_id: client.id, post_logout_redirect_uri: BYE, state: "<b>\"x\"</b>" }, browser.cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const html = await page.text();
    expect(html).toContain('<form method="post"');
    expect(html).not.toContain("<b>");
    expect(html).toContain("&#60;b&#62;&#34;x&#34;&#60;/b&#62;");
    expect(await isEnded(browser.sessionId)).toBe(false);

    const fields = formFields(html);
    expect(fields).toMatchObject({ client_id: client.id, post_logout_redirect_uri: BYE, state: "<b>\"x\"</b>" });
    expect(fields.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const res = await confirm({ ...fields, decision: "logout" }, browser.cookie);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${BYE}?state=${encodeURIComponent("<b>\"x\"</b>")}`);
    expect(await isEnded(browser.sessionId)).toBe(true);
  });

  it("refuses a confirmation without the right CSRF token or from another browser", async () => {
    const browser = await signedInBrowser();
    const other = await signedInBrowser();
    const fields = formFields(await (await logout({}, browser.cookie)).text());
    for (const [body, cookie] of [[{ ...fields, csrf: "forged", decision: "logout" }, browser.cookie],
      [{ decision: "logout" }, browser.cookie], [{ ...fields, decision: "logout" }, other.cookie]] as const) {
      const res = await confirm(body, cookie);
      expect(res.status).toBe(400);
    }
    expect(await isEnded(browser.sessionId)).toBe(false);
    expect(await isEnded(other.sessionId)).toBe(false);
  });

  it("keeps the sessions when the subscriber chooses to stay signed in", async () => {
    const browser = await signedInBrowser();
    const fields = formFields(await (await logout({}, browser.cookie)).text());
    const res = await confirm({ ...fields, decision: "stay" }, browser.cookie);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('id="logout-cancelled"');
    expect(await isEnded(browser.sessionId)).toBe(false);
    const done = await confirm({ ...fields, decision: "logout" }, browser.cookie);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('id="logout-done"');
    expect(await isEnded(browser.sessionId)).toBe(true);
  });

  it("has nothing to confirm for a browser without the cookie", async () => {
    const client = await createTestClient();
    const res = await logout({ client_id: client.id, post_logout_redirect_uri: BYE, state: "abc" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${BYE}?state=abc`);
    const page = await logout({});
    expect(page.status).toBe(200);
  });
});
