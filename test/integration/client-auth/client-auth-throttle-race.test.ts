import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { startServer, type RunningServer } from "@/test/support/server";
import { createTestClient } from "@/test/support/fixtures";
import { basic } from "@/test/support/codes";
import { rateLimitWindow } from "@/lib/security/hit-rate-limit";
import { clientAuthFailuresPerClient, clientAuthFailuresPerIp } from "@/lib/security/limits";

/**
 * Issue 33 follow-up: a client authentication's scrypt check is reserved as a failure (one atomic increment per key,
 * lib/security/throttle-client-auth.ts) BEFORE it runs, so tens of parallel wrong secrets across two workers never get
 * more checks than CLIENT_AUTH_FAILURE_LIMIT (per client_id and address) or CLIENT_AUTH_FAILURE_LIMIT_PER_IP; a right
 * secret gives its reservation back. A server of its own (WORKERS=2, trusting 127.0.0.1 as its proxy so each test
 * speaks from its own address); on PostgreSQL too when TEST_DATABASE=postgres.
 */
let server: RunningServer;
vi.setConfig({ testTimeout: 180_000 });
const PAIR_LIMIT = 5;
const IP_LIMIT = 8;

beforeAll(async () => {
  server = await startServer({ name: "client-auth-race", env: {
    WORKERS: "2", CLIENT_AUTH_FAILURE_LIMIT: String(PAIR_LIMIT), CLIENT_AUTH_FAILURE_LIMIT_PER_IP: String(IP_LIMIT),
    TRUSTED_PROXY: "127.0.0.1",
  } });
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

let ipCounter = 0;
const newIp = () => `198.51.100.${++ipCounter}`;
const token = async (id: string, secret: string, ip: string) => {
  const res = await fetch(`${server.baseUrl}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(id, secret), "x-forwarded-for": ip },
    body: new URLSearchParams({ grant_type: "authorization_code", code: "x", redirect_uri: "https://rp.example.test/callback" }),
  });
  const body = await res.json() as { error?: string };
  // 401 invalid_client: the secret was checked; 429 invalid_client: throttled, not checked; 400: authenticated.
  return res.status === 400 ? "authenticated" : `${res.status} ${body.error}`;
};
/**
 * A failure counter as stored. Every secret checked and found wrong stays counted in it, and nothing else (a request
 * refused before its check counts nothing), so after a burst of wrong secrets it is the number of scrypt checks: the
 * answers alone would not show it (a check whose failure lands past the limit is answered 429 too).
 */
const stored = async (limit: Parameters<typeof rateLimitWindow>[0], subject: string) =>
  (await db.rateLimit.findUnique({ where: { key: rateLimitWindow(limit, subject, Date.now()).key } }))?.count ?? 0;
const tally = (answers: string[]) => {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a] = (counts[a] ?? 0) + 1;
  return counts;
};

describe("client authentication throttling under parallel requests", () => {
  it("40 wrong secrets at once for one client from one address: only CLIENT_AUTH_FAILURE_LIMIT are checked", async () => {
    const c = await createTestClient();
    const ip = newIp();
    const counts = tally(await Promise.all(Array.from({ length: 40 }, (_, i) => token(c.id, `wrong-${i}`, ip))));
    expect(counts).toEqual({ "401 invalid_client": PAIR_LIMIT, "429 invalid_client": 40 - PAIR_LIMIT });
    expect(await stored(clientAuthFailuresPerClient(), `${c.id}\n${ip}`), "secrets checked").toBe(PAIR_LIMIT);
    // Audited once, and the right secret (never verified anywhere, so not marked) is refused from there, not checked.
    expect(await db.auditEvent.count({ where: { type: "client_auth_throttled", clientId: c.id } })).toBe(1);
    expect(await token(c.id, c.secret!, ip)).toBe("429 invalid_client");
    expect(await token(c.id, c.secret!, newIp())).toBe("authenticated");
  });

  it("40 unknown client_ids with secrets at once from one address: only CLIENT_AUTH_FAILURE_LIMIT_PER_IP are checked", async () => {
    const ip = newIp();
    const counts = tally(await Promise.all(Array.from({ length: 40 }, (_, i) => token(`nobody-${ip}-${i}`, "secret", ip))));
    expect(counts).toEqual({ "401 invalid_client": IP_LIMIT, "429 invalid_client": 40 - IP_LIMIT });
    expect(await stored(clientAuthFailuresPerIp(), ip), "secrets checked").toBe(IP_LIMIT);
  });

  it("successes never count: more right secrets than the limits from one address, then a full failure budget", async () => {
    const ip = newIp();
    // Each a first verification (an scrypt, reserved and given back): without the refund the address would be throttled.
    const clients = await Promise.all(Array.from({ length: IP_LIMIT + 2 }, () => createTestClient()));
    for (const c of clients) expect(await token(c.id, c.secret!, ip)).toBe("authenticated");
    // The same clients again, in parallel on both workers (cached or marked): all authenticated.
    const again = tally(await Promise.all(clients.flatMap((c) => [token(c.id, c.secret!, ip), token(c.id, c.secret!, ip)])));
    expect(again).toEqual({ authenticated: 2 * clients.length });
    // The failures are still counted in full from there: the budget is intact, and the right secret still passes.
    const c = clients[0]!;
    const wrong = tally(await Promise.all(Array.from({ length: 20 }, (_, i) => token(c.id, `wrong-${i}`, ip))));
    expect(wrong).toEqual({ "401 invalid_client": PAIR_LIMIT, "429 invalid_client": 20 - PAIR_LIMIT });
    expect(await token(c.id, c.secret!, ip)).toBe("authenticated");
  });
});
