import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { useAbuseServer } from "@/test/support/abuse-server";
import { markSecretVerified } from "@/lib/security/verified-client-secret";
import { createTestClient } from "@/test/support/fixtures";
import { basic } from "@/test/support/codes";
/**
 * Client authentication throttling at /token, /revoke and /introspect (issue 6, "Abuse and brute force"):
 * per client_id and address, per address, and the right secret passing.
 * Against a server of its own with the production limits (test/support/abuse-server.ts).
 */
const h = useAbuseServer("client-auth");
vi.setConfig({ testTimeout: 90_000 });

describe("client authentication throttling", () => {
  const tokenRequest = (id: string, secret: string, ip: string, endpoint = "/token", body: Record<string, string> = {}) =>
    fetch(`${h.baseUrl}${endpoint}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(id, secret), "x-forwarded-for": ip },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "x", redirect_uri: "https://rp.example.test/callback", ...body }),
    });

  it("10 failures for a client_id from one address: 429 invalid_client with Retry-After there, the right secret still passes everywhere", async () => {
    const c = await createTestClient();
    const attacker = h.newIp();
    for (let i = 0; i < 10; i++) {
      const res = await tokenRequest(c.id, "wrong-secret", attacker);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe("invalid_client");
    }
    const throttled = await tokenRequest(c.id, "wrong-secret", attacker);
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toMatchObject({ error: "invalid_client" });
    const retryAfter = Number(throttled.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(throttled.headers.get("cache-control")).toContain("no-store");
    // The relying party, from its own address, at every endpoint: authenticated (the code "x" is invalid_grant).
    expect((await tokenRequest(c.id, c.secret!, h.newIp())).status).toBe(400);
    for (const endpoint of ["/revoke", "/introspect"]) {
      expect((await tokenRequest(c.id, c.secret!, h.newIp(), endpoint, { token: "t" })).status).toBe(200);
    }
    // Even from the attacker's address (an aggregator, a NAT): the right secret passes, wrong ones stay 429.
    expect((await tokenRequest(c.id, c.secret!, attacker)).status).toBe(400);
    expect((await tokenRequest(c.id, "wrong-again", attacker)).status).toBe(429);
    const audited = await db.auditEvent.findMany({ where: { type: "client_auth_throttled", clientId: c.id } });
    expect(audited).toHaveLength(1);
  });

  it("50 failures from one address, whatever the client_id: 429 without an scrypt, but other clients' right secrets pass", async () => {
    const ip = h.newIp();
    const statuses = [];
    for (let i = 0; i < 51; i++) statuses.push((await tokenRequest(`nobody-${i}`, "secret", ip)).status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses[50]).toBe(429);
    // A client that authenticated before (anywhere, any instance) carries a mark: it passes from the throttled address.
    const seen = await createTestClient();
    expect((await tokenRequest(seen.id, seen.secret!, h.newIp())).status).toBe(400);
    expect((await tokenRequest(seen.id, seen.secret!, ip)).status).toBe(400);
    // So does one this process never verified, marked by `client create` (here: directly), and a wrong secret does not.
    const fresh = await createTestClient();
    const row = await db.client.findUniqueOrThrow({ where: { id: fresh.id } });
    await markSecretVerified({ clientId: fresh.id, secretHash: row.secretHash!, secret: fresh.secret! });
    expect((await tokenRequest(fresh.id, fresh.secret!, ip)).status).toBe(400);
    const wrong = await tokenRequest(fresh.id, "not-the-secret", ip);
    expect(wrong.status).toBe(429);
    expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
  });
});
