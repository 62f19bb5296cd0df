import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { authorizeMobile } from "../../support/mobile-support";

/**
 * Issue 15, section 1: limits on out-of-band approval requests, on a server of its own with the
 * production defaults (per requesting IP and number 3, per IP 10, per number 10 per 15 minutes) and
 * small pending ceilings. TRUSTED_PROXY=127.0.0.1: each requester speaks from its own X-Forwarded-For address.
 */
const LIMITS = {
  TRUSTED_PROXY: "127.0.0.1", APPROVAL_LIMIT_PER_IP: "10", APPROVAL_LIMIT_PER_IP_AND_NUMBER: "3", APPROVAL_LIMIT_PER_NUMBER: "10",
  APPROVAL_LIMIT_PER_CLIENT: "1000", APPROVAL_PENDING_PER_SUBSCRIBER: "4", APPROVAL_PENDING_PER_CLIENT: "12",
};
let server: RunningServer;
let baseUrl = "";
let ipCounter = 0;
const newIp = () => `198.51.100.${++ipCounter}`;
vi.setConfig({ testTimeout: 90_000 });

beforeAll(async () => {
  server = await startServer({ name: "oob-limits", env: LIMITS });
  baseUrl = server.baseUrl;
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

async function enrol(subscriberId: string) {
  await db.device.create({ data: { id: randomToken(12), subscriberId, name: "Phone", secretHash: sha256(randomToken(32)) } });
}

/** GET /authorize?prompt=mobile from `ip`: the waiting page (200), or the error redirect's parameters. */
async function ask(client: { id: string; redirectUri: string }, msisdn: string, ip: string) {
  const q = { response_type: "code", client_id: client.id, redirect_uri: client.redirectUri, scope: "openid",
    state: randomToken(8), nonce: randomToken(8), acr_values: "2", prompt: "mobile", login_hint: `MSISDN:${msisdn}` };
  const res = await fetch(`${baseUrl}/authorize?${new URLSearchParams(q)}`, {
    redirect: "manual", headers: { "x-forwarded-for": ip },
  });
  if (res.status === 200) return { ok: true as const };
  expect(res.status).toBe(302);
  const p = new URL(res.headers.get("location")!).searchParams;
  expect(p.get("state")).toBe(q.state);
  expect(p.get("iss")).toBe(baseUrl);
  return { ok: false as const, error: p.get("error"), description: p.get("error_description") ?? "" };
}

describe("limits on approval requests", () => {
  it("a stranger's address is stopped after 3 for one number; the subscriber's own requests still go through", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    await enrol(s.id);
    const stranger = newIp();
    for (let i = 0; i < 3; i++) expect((await ask(client, s.msisdn, stranger)).ok).toBe(true);
    const refused = await ask(client, s.msisdn, stranger);
    expect(refused).toMatchObject({ ok: false, error: "temporarily_unavailable" });
    expect(refused.ok || refused.description).toMatch(/Too many approval requests .*try again in \d+ seconds/);
    // The subscriber, from another address, is not locked out by the stranger.
    expect((await ask(client, s.msisdn, newIp())).ok).toBe(true);
    const audit = await db.auditEvent.findMany({ where: { type: "approval_requested", clientId: client.id, ip: stranger } });
    expect(audit.map((e) => e.outcome).sort()).toEqual(["success", "success", "success", "throttled"]);
  });

  it("the same answer for a number with a handset, without one and unknown", async () => {
    const client = await createTestClient();
    const withPhone = await createTestSubscriber();
    await enrol(withPhone.id);
    const without = await createTestSubscriber();
    for (const msisdn of [withPhone.msisdn, without.msisdn, `4479${String(Date.now()).slice(-8)}`]) {
      const ip = newIp();
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await ask(client, msisdn, ip)).ok);
      expect(answers).toEqual([true, true, true, false]);
    }
  });

  it("pending ceilings per subscriber and per client, answered with a clear error", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    await enrol(s.id);
    // Four requesters, one request each: the fifth pending request for the subscriber is refused.
    for (let i = 0; i < 4; i++) expect((await ask(client, s.msisdn, newIp())).ok).toBe(true);
    const full = await ask(client, s.msisdn, newIp());
    expect(full).toMatchObject({ ok: false, error: "temporarily_unavailable" });
    expect(full.ok || full.description).toContain("waiting on the subscriber's handset");
    // Per client: 12 pending at once over every number (4 above + 8 more), then refused.
    for (let i = 0; i < 8; i++) expect((await ask(client, (await createTestSubscriber()).msisdn, newIp())).ok).toBe(true);
    const clientFull = await ask(client, (await createTestSubscriber()).msisdn, newIp());
    expect(clientFull).toMatchObject({ ok: false, error: "temporarily_unavailable" });
    // Another client is not affected.
    expect((await ask(await createTestClient(), (await createTestSubscriber()).msisdn, newIp())).ok).toBe(true);
  });

  it("one address cannot ask for more than 10 numbers in 15 minutes", async () => {
    const client = await createTestClient();
    const ip = newIp();
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await ask(client, (await createTestSubscriber()).msisdn, ip)).ok);
    expect(answers.slice(0, 10).every(Boolean)).toBe(true);
    expect(answers[10]).toBe(false);
  });

  it("the waiting page of an allowed request still works under the limits", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber();
    const controller = new AbortController();
    const m = await authorizeMobile({ response_type: "code", client_id: client.id, redirect_uri: client.redirectUri,
      scope: "openid", state: "st", nonce: "n", acr_values: "2", prompt: "mobile", login_hint: `MSISDN:${s.msisdn}` },
    { baseUrl, headers: { "x-forwarded-for": newIp() }, signal: controller.signal });
    expect(m.checkCode).toMatch(/^\d{2}$/);
    controller.abort();
    await m.pending.catch(() => null);
  });
});
