import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { baseUrl, codeRow, createTestClient, createTestSubscriber, expectCallback, expectErrorRedirect, requestFor }
  from "../../support/authorize-support";
import { createApiClient, declarePurpose, FRAUD } from "../../support/camara-support";
import { authorizeFrom, browserIdSet, fromAddress, mapRange } from "../../support/network-support";

/**
 * Network-based authentication at /authorize (docs/network-authentication.md), issue 21's review:
 * - the silent sign-in never skips the network-API consent of a consent-based (scope, purpose): the consent screen,
 *   or with prompt=none `consent_required`;
 * - an `ipport:` hint is only a check against the request's own connection: another connection's hint names nobody
 *   (no masked number on the sign-in screen, no code or handset request for that subscriber).
 */
describe("network sign-in and the network-API consent", () => {
  it("a consent-based scope with prompt=none from the subscriber's data session is consent_required", async () => {
    const scope = "sim-swap:retrieve-date";
    const purpose = "dpv:AccountManagement";
    await declarePurpose(scope, purpose, "consent");
    const client = await createApiClient({ scopes: [scope, purpose] });
    const subscriber = await createTestSubscriber();
    await mapRange("127.0.0.92", subscriber.msisdn);
    const query = requestFor(client, { prompt: "none", scope: `openid ${scope} ${purpose}` });
    const res = await authorizeFrom(query, { from: "127.0.0.92" });
    expectErrorRedirect(res, client, query.state, "consent_required");
    expect(await db.authorizationCode.count({ where: { clientId: client.id } })).toBe(0);
  });

  it("without prompt=none it goes to the consent screen, not to the client with a code", async () => {
    const scope = "sim-swap:retrieve-date";
    const purpose = "dpv:AccountManagement";
    await declarePurpose(scope, purpose, "consent");
    const client = await createApiClient({ scopes: [scope, purpose] });
    const subscriber = await createTestSubscriber();
    await mapRange("127.0.0.93", subscriber.msisdn);
    const res = await authorizeFrom(requestFor(client, { scope: `openid ${scope} ${purpose}` }), { from: "127.0.0.93" });
    expect(res.headers.get("location") ?? "").toContain("/interaction/");
    expect(await db.authorizationCode.count({ where: { clientId: client.id } })).toBe(0);
  });
});

describe("an ipport hint of another connection at /authorize", () => {
  it("names nobody: the sign-in screen does not show that subscriber's masked number", async () => {
    const client = await createTestClient();
    const victim = await createTestSubscriber();
    await mapRange("198.51.122.0/24", victim.msisdn);
    const query = requestFor(client, { login_hint: "ipport:198.51.122.5:4242" });
    const res = await authorizeFrom(query, { from: "127.0.0.1" });
    const loc = res.headers.get("location") ?? "";
    expect(loc).toContain("/interaction/");
    const browserId = browserIdSet(res);
    const url = new URL(loc, baseUrl);
    const page = await fromAddress(url.pathname + url.search, { from: "127.0.0.1",
      headers: browserId ? { cookie: `${browserCookieName()}=${browserId}` } : {} });
    const html = await page.text();
    expect(html).not.toContain(victim.msisdn.slice(-4));
    const row = await db.authorizationRequest.findFirst({ where: { clientId: client.id }, orderBy: { createdAt: "desc" } });
    expect(row).not.toBeNull();
    expect(JSON.parse(row!.params)).not.toHaveProperty("hintedMsisdn");
    expect(row!.sentTo).toBeNull(); // no sign-in code went to anyone
  });
});

describe("repeated Number Verification from one browser", () => {
  it("reuses the browser's nba session opened moments ago: one session, one sign_in event; the network still asked",
    async () => {
      const NV = "number-verification:verify";
      await declarePurpose(NV, FRAUD, "contract");
      const client = await createApiClient({ scopes: [NV, FRAUD] });
      const subscriber = await createTestSubscriber();
      await mapRange("127.0.0.94", subscriber.msisdn);
      const scope = `openid ${NV} ${FRAUD}`;
      const first = requestFor(client, { scope });
      const res = await authorizeFrom(first, { from: "127.0.0.94" });
      expect(expectCallback(res, client, first.state).get("code")).toBeTruthy();
      const browserId = browserIdSet(res)!;
      const second = requestFor(client, { scope });
      const again = await authorizeFrom(second, { from: "127.0.0.94", browserId });
      const code = expectCallback(again, client, second.state).get("code")!;
      expect((await codeRow(code))!.amr).toBe("nba");
      expect(await db.session.count({ where: { subscriberId: subscriber.id, amr: "nba" } })).toBe(1);
      expect(await db.auditEvent.count({ where: { type: "sign_in", clientId: client.id } })).toBe(1);
      // The reuse never replaces the network's answer on this request.
      const elsewhere = requestFor(client, { scope });
      expectErrorRedirect(await authorizeFrom(elsewhere, { from: "127.0.0.95", browserId }), client, elsewhere.state,
        "login_required");
    });
});
