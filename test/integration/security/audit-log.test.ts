import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { useAbuseServer } from "@/test/support/abuse-server";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { basic, redeemCode } from "@/test/support/codes";
import { signInAndConsent } from "@/test/support/browserless";
/**
 * The audit log (issue 6, "Audit"): what is recorded, pseudonymised and without secrets, append-only,
 * and the operator's `npm run admin -- audit`.
 * Against a server of its own with the production limits (test/support/abuse-server.ts).
 */
const h = useAbuseServer("audit");
vi.setConfig({ testTimeout: 90_000 });

describe("audit log", () => {
  it("records sign-in, consent, token issuance and revocation, withdrawal: pseudonymised, with client and IP, never secrets", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const c = await createTestClient();
    const ref = pseudonymiseSubscriber(s.id);
    // A failed and a successful sign-in, then consent (level 3: the PIN is typed on the code screen).
    await h.failPins(s, 1);
    const q = new URLSearchParams({
      client_id: c.id, client_name: c.name, response_type: "code", redirect_uri: c.redirectUri,
      scope: "openid mc_authn offline_access", acr_values: "3", state: "st", nonce: "n", version: "mc_v1.1",
    });
    const { callbackUrl } = await signInAndConsent({ authorizationUrl: `${h.baseUrl}/authorize?${q}`, msisdn: s.msisdn, pin: s.pin });
    const code = callbackUrl.searchParams.get("code")!;
    const tokenRes = await redeemCode(h.baseUrl, c, code);
    expect(tokenRes.status).toBe(200);
    const tokens = await tokenRes.json();
    const revoke = await fetch(`${h.baseUrl}/revoke`, {
      method: "POST", body: new URLSearchParams({ token: tokens.access_token }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(c.id, c.secret!), "x-forwarded-for": "192.0.2.77" },
    });
    expect(revoke.status).toBe(200);
    expect((await h.admin("subscriber", "withdraw-consent", s.msisdn, "--client", c.id)).code).toBe(0);

    const events = await db.auditEvent.findMany({ where: { subscriberRef: ref }, orderBy: { at: "asc" } });
    const kinds = events.map((e) => `${e.type}:${e.outcome}`);
    for (const k of ["sign_in:failure", "sign_in:success", "consent_given:success", "token_issued:success",
      "token_revoked:success", "consent_withdrawn:success", "admin_subscriber_withdraw_consent:success"]) {
      expect(kinds).toContain(k);
    }
    const byType = (t: string, outcome = "success") => events.find((e) => e.type === t && e.outcome === outcome)!;
    expect(byType("sign_in")).toMatchObject({ clientId: c.id, ip: "127.0.0.1" });
    expect(byType("sign_in", "failure")).toMatchObject({ clientId: h.client.id });
    expect(byType("sign_in", "failure").ip).toMatch(/^198\.51\.100\.\d+$/);
    expect(JSON.parse(byType("sign_in", "failure").detail!)).toMatchObject({ reason: "pin_invalid", acr: "3" });
    expect(byType("token_issued")).toMatchObject({ clientId: c.id });
    expect(byType("token_revoked")).toMatchObject({ clientId: c.id, ip: "192.0.2.77" });
    expect(byType("sign_in").at.getTime()).toBeGreaterThan(Date.now() - 120_000);
    const everything = JSON.stringify(events);
    for (const secret of [s.id, s.msisdn, s.pin, code, tokens.access_token, tokens.refresh_token, c.secret!]) {
      expect(everything).not.toContain(secret);
    }
  });

  it("records a refused consent", async () => {
    const s = await createTestSubscriber();
    const q = new URLSearchParams({
      client_id: h.client.id, client_name: h.client.name, response_type: "code", redirect_uri: h.client.redirectUri,
      scope: "openid mc_authn", acr_values: "2", state: "st", nonce: "n", version: "mc_v1.1",
    });
    await signInAndConsent({ authorizationUrl: `${h.baseUrl}/authorize?${q}`, msisdn: s.msisdn, decision: "deny" });
    const denied = await db.auditEvent.findMany({ where: { type: "consent_denied", subscriberRef: pseudonymiseSubscriber(s.id) } });
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ outcome: "denied", clientId: h.client.id });
  });

  it("is append-only: the database refuses UPDATE and DELETE", async () => {
    const row = await db.auditEvent.findFirstOrThrow();
    await expect(db.auditEvent.update({ where: { id: row.id }, data: { outcome: "success" } })).rejects.toThrow(/append-only/);
    await expect(db.auditEvent.deleteMany({})).rejects.toThrow(/append-only/);
    expect(await db.auditEvent.count()).toBeGreaterThan(0);
  });

  it("`npm run admin -- audit` lists and filters by type, subscriber, client, since and limit", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    await h.failPins(s, 2);
    // A lockout to filter by (on this file's own server; it used to come from the PIN lockout tests).
    await h.failPins(await createTestSubscriber({ pin: "8642" }), 5);
    const all = await h.adminJson("audit", "--limit", "1000");
    expect(all.events.length).toBeGreaterThan(5);
    const mine = await h.adminJson("audit", "--subscriber", s.msisdn);
    expect(mine.events).toHaveLength(2);
    expect(mine.events.every((e: { type: string; outcome: string; subscriber_ref: string }) =>
      e.type === "sign_in" && e.outcome === "failure" && e.subscriber_ref === pseudonymiseSubscriber(s.id))).toBe(true);
    const byType = await h.adminJson("audit", "--type", "pin_lockout");
    expect(byType.events.length).toBeGreaterThan(0);
    expect(byType.events.every((e: { type: string }) => e.type === "pin_lockout")).toBe(true);
    const byClient = await h.adminJson("audit", "--client", h.client.id, "--type", "sign_in", "--limit", "3");
    expect(byClient.events).toHaveLength(3);
    expect(byClient.events.every((e: { client_id: string }) => e.client_id === h.client.id)).toBe(true);
    const times = byClient.events.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await h.adminJson("audit", "--since", new Date(Date.now() + 60_000).toISOString())).events).toHaveLength(0);
    expect((await h.adminJson("audit", "--since", "10m", "--subscriber", s.msisdn)).events).toHaveLength(2);
    const text = await h.admin("audit", "--subscriber", s.msisdn);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("sign_in  failure");
    expect(text.stdout).not.toContain(s.msisdn);
    const bad = await h.admin("audit", "--since", "yesterday", "--json");
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error).toContain("--since");
  }, 240_000); // nine CLI start-ups
});
