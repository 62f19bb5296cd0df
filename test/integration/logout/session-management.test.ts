import { createHash } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { randomToken, sha256 } from "@/lib/crypto";
import { db } from "@/lib/db";
import { setClientLogout } from "@/lib/logout/set-client-logout";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";

const baseUrl = inject("baseUrl");

/** A signed-in browser with remembered consent: /authorize answers at once with a code. */
async function signedInWithConsent(client: { id: string }) {
  const subscriber = await createTestSubscriber();
  const browserId = randomToken(32);
  await db.session.create({ data: { id: randomToken(16), browserIdHash: sha256(browserId), subscriberId: subscriber.id,
    authTime: new Date(), acr: "2", amr: "otp", expiresAt: new Date(Date.now() + 3_600_000) } });
  await db.grant.create({ data: { id: randomToken(12), subscriberId: subscriber.id, clientId: client.id, scope: "openid" } });
  return { subscriber, cookie: `${browserCookieName()}=${browserId}` };
}
const bsCookie = (res: Response) => {
  const line = res.headers.getSetCookie().find((c) => c.startsWith("op_bs="));
  return line ? { value: line.split(";")[0]!.slice("op_bs=".length), line } : undefined;
};

describe("OpenID Connect Session Management 1.0", () => {
  it("advertises check_session_iframe and the logout capabilities", async () => {
    const meta = await (await fetch(`${baseUrl}/.well-known/openid-configuration`)).json() as Record<string, unknown>;
    expect(meta.check_session_iframe).toBe(`${baseUrl}/logout/check-session`);
    expect(meta).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true,
      frontchannel_logout_supported: true, frontchannel_logout_session_supported: true });
  });

  it("session_state in the authorization response matches the readable browser-state cookie (§3)", async () => {
    const client = await createTestClient();
    const { cookie } = await signedInWithConsent(client);
    const res = await fetch(`${baseUrl}/authorize?${new URLSearchParams({ client_id: client.id,
      redirect_uri: client.redirectUri, response_type: "code", scope: "openid", state: "s", nonce: "n", acr_values: "2" })}`,
      { redirect: "manual", headers: { Cookie: cookie } });
    expect(res.status).toBe(302);
    const params = new URL(res.headers.get("location")!).searchParams;
    expect(params.get("code")).toBeTruthy();
    const [digest, salt] = params.get("session_state")!.split(".");
    const bs = bsCookie(res)!;
    expect(bs.line).not.toMatch(/HttpOnly/i); // the iframe's script reads it
    expect(bs.line).toMatch(/SameSite=Lax/);
    const expected = createHash("sha256").update(`${client.id} https://rp.example.test ${bs.value} ${salt}`).digest("hex");
    expect(digest).toBe(expected);
    // the cookie reveals nothing of the HttpOnly browser id
    expect(bs.value).not.toBe(cookie.split("=")[1]);

    // a sign-out gives the browser a new state: the same session_state is now "changed"
    const out = await fetch(`${baseUrl}/logout?${new URLSearchParams({ client_id: client.id })}`,
      { redirect: "manual", headers: { Cookie: cookie } });
    const page = await out.text();
    const fields = Object.fromEntries([...page.matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const done = await fetch(`${baseUrl}/logout`, { method: "POST", redirect: "manual",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, decision: "logout" }) });
    expect(done.status).toBe(200);
    const after = bsCookie(done)!;
    expect(after.value).not.toBe(bs.value);
  });

  it("serves check_session_iframe: framed only by registered client origins, script by hash, no eval", async () => {
    await createTestClient({ redirectUris: ["https://framer.example.test/cb"] });
    const res = await fetch(`${baseUrl}/logout/check-session`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    const ancestors = /frame-ancestors ([^;]+)/.exec(csp)![1]!.split(" ");
    expect(ancestors).toContain("https://framer.example.test");
    expect(ancestors).not.toContain("*");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+';/);
    expect(csp).not.toContain("unsafe");
    const html = await res.text();
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1]!;
    expect(csp).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    expect(html).toContain('data-cookie="op_bs"');
    // every other page keeps frame-ancestors 'none'
    const logout = await fetch(`${baseUrl}/logout`);
    expect(logout.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("Front-Channel Logout 1.0 page", () => {
  it("renders an iframe per registered URI (iss and sid when required), frame-src exactly those origins", async () => {
    const a = await createTestClient();
    const b = await createTestClient();
    await setClientLogout({ clientId: a.id, changes: { frontchannel_logout_uri: "https://a.example.test/fc?x=1",
      frontchannel_logout_session_required: true } });
    await setClientLogout({ clientId: b.id, changes: { frontchannel_logout_uri: "https://b.example.test/fc" } });
    const subscriber = await createTestSubscriber();
    const browserId = randomToken(32);
    const session = await db.session.create({ data: { id: randomToken(16), browserIdHash: sha256(browserId),
      subscriberId: subscriber.id, authTime: new Date(), acr: "2", amr: "otp", expiresAt: new Date(Date.now() + 3_600_000) } });
    for (const c of [a, b]) {
      await db.grant.create({ data: { id: randomToken(12), subscriberId: subscriber.id, clientId: c.id, scope: "openid" } });
    }
    const cookie = `${browserCookieName()}=${browserId}`;
    const ask = await fetch(`${baseUrl}/logout?${new URLSearchParams({ client_id: a.id, post_logout_redirect_uri:
      "https://rp.example.test/bye", state: "st" })}`, { headers: { Cookie: cookie } });
    const fields = Object.fromEntries([...(await ask.text()).matchAll(/name="([^"]+)" value="([^"]*)"/g)]
      .map((m) => [m[1], m[2]!.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))]));
    const res = await fetch(`${baseUrl}/logout`, { method: "POST", redirect: "manual",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...fields, decision: "logout" }) });
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(/frame-src ([^;]+)/.exec(csp)![1]!.split(" ").sort()).toEqual(["https://a.example.test", "https://b.example.test"]);
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    const srcs = [...html.matchAll(/<iframe[^>]* src="([^"]+)"/g)].map((m) => m[1]!.replace(/&#38;/g, "&"));
    const expectedA = new URL("https://a.example.test/fc?x=1");
    expectedA.searchParams.set("iss", baseUrl);
    expectedA.searchParams.set("sid", session.id);
    expect(srcs.sort()).toEqual([expectedA.toString(), "https://b.example.test/fc"].sort());
    expect(html).toContain('href="https://rp.example.test/bye?state=st"');
  });
});
