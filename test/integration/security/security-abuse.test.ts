import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { markSecretVerified } from "@/lib/security/verified-client-secret";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { basic, issueTestCode, redeemCode } from "@/test/support/codes";
import { signInAndConsent } from "@/test/support/browserless";
import { beginAuthorization, getInteraction, postStep, type Flow } from "@/e2e/fixtures/interaction-http";

/**
 * Issue 6, "Abuse and brute force" and "Audit", over HTTP against a server of its own that runs
 * with the production limits (the shared test server lifts them: test/support/server.ts). The
 * server trusts one proxy (TRUSTED_PROXY=1), so each test speaks from its own X-Forwarded-For
 * address and the per-IP limits of one test do not spill into another.
 */
const LIMITS = {
  OTP_SEND_LIMIT_PER_REQUESTER: "5", OTP_SEND_LIMIT_PER_MSISDN: "20", OTP_SEND_LIMIT_PER_IP: "20",
  OTP_SEND_LIMIT_PER_NAT_IP: "30", CARRIER_NAT_RANGES: "100.64.0.0/10, 2001:db8:ca7::/48",
  CLIENT_AUTH_FAILURE_LIMIT: "10", CLIENT_AUTH_FAILURE_LIMIT_PER_IP: "50", TRUSTED_PROXY: "1",
};
const root = fileURLToPath(new URL("../../..", import.meta.url));
let server: RunningServer;
let baseUrl = "";
let client: Awaited<ReturnType<typeof createTestClient>>;
let ipCounter = 0;
const newIp = () => `198.51.100.${++ipCounter}`;
vi.setConfig({ testTimeout: 90_000 });

beforeAll(async () => {
  server = await startServer({ name: "security", env: LIMITS });
  baseUrl = server.baseUrl;
  // This worker's `db` talks to this server's database (nothing has read the configuration yet).
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
  client = await createTestClient();
}, 120_000);
afterAll(() => server?.stop());

const latestCode = async (msisdn: string) => {
  const m = await db.message.findFirst({ where: { msisdn }, orderBy: { createdAt: "desc" } });
  return m ? /\b(\d{6})\b/.exec(m.body)![1]! : null;
};
const post = (f: Flow, step: string, fields: Record<string, string> = {}, ip = "203.0.113.1") =>
  postStep(baseUrl, f.id, step, { cookie: f.cookie, fields: { csrf_token: f.csrf, ...fields }, headers: { "x-forwarded-for": ip } });
const errorOf = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("e");
const subscriberRow = (id: string) => db.subscriber.findUniqueOrThrow({ where: { id } });
const wrongPin = (pin: string) => (pin === "1357" ? "2468" : "1357");

/** A level-3 sign-in reaching the code step for `msisdn`, from `ip`. */
async function level3(msisdn: string, ip: string) {
  const f = await beginAuthorization(baseUrl, client, { acr_values: "3" });
  const res = await post(f, "msisdn", { msisdn }, ip);
  expect(res.status).toBe(303);
  return { f, res };
}

/** Submits `n` wrong PINs with correct codes (requesting a new code whenever one is burnt); returns the last error. */
async function failPins(s: { msisdn: string; pin: string }, n: number, ip = newIp()) {
  const { f } = await level3(s.msisdn, ip);
  let last: string | null = null;
  let attemptsOnCode = 0;
  for (let i = 0; i < n; i++) {
    if (attemptsOnCode === 3) {
      await post(f, "resend", {}, ip);
      attemptsOnCode = 0;
    }
    last = errorOf(await post(f, "code", { code: (await latestCode(s.msisdn))!, pin: wrongPin(s.pin) }, ip));
    attemptsOnCode++;
  }
  return { f, last, ip };
}

describe("PIN lockout", () => {
  it("locks after 5 consecutive wrong PINs for 5 minutes; the right PIN is refused while locked", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const { last } = await failPins(s, 4);
    expect(last).toBe("pin_invalid");
    expect((await subscriberRow(s.id)).lockedUntil).toBeNull();
    const { f, last: fifth, ip } = await failPins(s, 1);
    expect(fifth).toBe("pin_locked");
    const row = await subscriberRow(s.id);
    expect(row.lockoutCount).toBe(1);
    expect(row.failedPinAttempts).toBe(0);
    const seconds = (row.lockedUntil!.getTime() - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(290);
    expect(seconds).toBeLessThanOrEqual(300);
    // The subscriber (who has the code) is told; the right PIN does not get through.
    const page = await getInteraction(baseUrl, f.id, f.cookie, "?e=pin_locked");
    expect(page.html).toContain("Too many wrong PINs");
    const ok = await post(f, "code", { code: (await latestCode(s.msisdn))!, pin: s.pin }, ip);
    expect(errorOf(ok)).toBe("pin_locked");
    // The 303 says when the lockout ends (Retry-After, and `until` for the screen, which shows the time).
    const until = Number(new URL(ok.headers.get("location")!).searchParams.get("until"));
    expect(Math.abs(until * 1000 - row.lockedUntil!.getTime())).toBeLessThan(2_000);
    expect(Number(ok.headers.get("retry-after"))).toBeGreaterThan(280);
    const told = await getInteraction(baseUrl, f.id, f.cookie, new URL(ok.headers.get("location")!).search);
    expect(told.html).toMatch(/Try again at \d\d:\d\d/);
    expect(told.html).not.toContain('name="pin"');
    expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } })).status).toBe("pending");
    const lockouts = await db.auditEvent.findMany({ where: { type: "pin_lockout", subscriberRef: pseudonymiseSubscriber(s.id) } });
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({ outcome: "locked", clientId: client.id });
    expect(JSON.parse(lockouts[0]!.detail!)).toMatchObject({ lockout_number: 1, seconds: 300 });
  });

  it("escalates: 15 minutes, then 1 hour, then 24 hours", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    for (const [previous, expected] of [[1, 900], [2, 3600], [3, 86_400], [7, 86_400]] as const) {
      await db.subscriber.update({ where: { id: s.id }, data: { lockoutCount: previous, failedPinAttempts: 4, lockedUntil: null } });
      expect((await failPins(s, 1)).last).toBe("pin_locked");
      const row = await subscriberRow(s.id);
      expect(row.lockoutCount).toBe(previous + 1);
      const seconds = (row.lockedUntil!.getTime() - Date.now()) / 1000;
      expect(seconds).toBeGreaterThan(expected - 15);
      expect(seconds).toBeLessThanOrEqual(expected);
    }
  });

  it("a successful PIN sign-in resets the failures and the escalation", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    await db.subscriber.update({ where: { id: s.id }, data: { lockoutCount: 2, failedPinAttempts: 3, lockedUntil: new Date(Date.now() - 1000) } });
    const ip = newIp();
    const { f } = await level3(s.msisdn, ip);
    const ok = await post(f, "code", { code: (await latestCode(s.msisdn))!, pin: s.pin }, ip);
    expect(ok.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
    expect(await subscriberRow(s.id)).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });
  });

  it("`npm run admin -- subscriber unlock` lifts the lockout and is audited", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    await failPins(s, 5);
    expect((await subscriberRow(s.id)).lockedUntil).not.toBeNull();
    const r = await admin("subscriber", "unlock", s.msisdn);
    expect(r.code).toBe(0);
    expect(await subscriberRow(s.id)).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });
    const ip = newIp();
    const { f } = await level3(s.msisdn, ip);
    const ok = await post(f, "code", { code: (await latestCode(s.msisdn))!, pin: s.pin }, ip);
    expect(ok.headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
    const events = await db.auditEvent.findMany({ where: { type: "admin_subscriber_unlock", subscriberRef: pseudonymiseSubscriber(s.id) } });
    expect(events).toHaveLength(1);
  });

  it("an unknown number and a locked number look the same from outside: screens, errors and timing", async () => {
    const locked = await createTestSubscriber({ pin: "8642" });
    await db.subscriber.update({ where: { id: locked.id }, data: { lockoutCount: 1, lockedUntil: new Date(Date.now() + 600_000) } });
    const unknown = "447700999001";
    const observe = async (msisdn: string) => {
      const ip = newIp();
      const { f, res } = await level3(msisdn, ip);
      const page = await getInteraction(baseUrl, f.id, f.cookie);
      const times: number[] = [];
      const errors: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const r = await post(f, "code", { code: "000000", pin: "1111" }, ip);
        times.push(performance.now() - started);
        errors.push(errorOf(r));
      }
      // Only per-request values differ between two renderings of the same screen.
      let html = page.html.replaceAll(f.id, "ID").replaceAll(f.csrf, "CSRF");
      for (const m of page.html.matchAll(/nonce(?:=|\\?":\\?)"([A-Za-z0-9+/=_-]{8,})/g)) html = html.replaceAll(m[1]!, "NONCE");
      return { status: res.status, location: res.headers.get("location")!.replace(f.id, "ID"), html, errors, times };
    };
    const a = await observe(unknown);
    const b = await observe(locked.msisdn);
    expect(b.status).toBe(a.status);
    expect(b.location).toBe(a.location);
    expect(b.html).toBe(a.html);
    expect(b.errors).toEqual(a.errors);
    expect(a.errors).toEqual(["code_invalid", "code_invalid", "code_burnt"]);
    // Same timing class: both pay one scrypt per attempt (a level-2 wrong code pays none).
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1]!;
    const ratio = median(a.times) / median(b.times);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(4);
  });
});

describe("one-time codes", () => {
  it("a code allows 3 wrong attempts, then it is dead even for the right code", async () => {
    const s = await createTestSubscriber();
    const ip = newIp();
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: s.msisdn }, ip);
    const code = (await latestCode(s.msisdn))!;
    const wrong = code === "000000" ? "111111" : "000000";
    const errors = [];
    for (let i = 0; i < 3; i++) errors.push(errorOf(await post(f, "code", { code: wrong }, ip)));
    expect(errors).toEqual(["code_invalid", "code_invalid", "code_burnt"]);
    expect(errorOf(await post(f, "code", { code }, ip))).toBe("code_burnt");
    expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } })).status).toBe("pending");
  });

  it("a stranger cannot lock a subscriber out: 5 codes per requester and number, the screen says when to try again", async () => {
    const s = await createTestSubscriber();
    const stranger = newIp();
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const f = await beginAuthorization(baseUrl, client); // a fresh browser each time: only the address is his
      answers.push({ f, res: await post(f, "msisdn", { msisdn: s.msisdn }, stranger) });
    }
    expect(answers.slice(0, 5).map(({ res }) => errorOf(res))).toEqual([null, null, null, null, null]);
    const { f, res } = answers[5]!;
    expect(errorOf(res)).toBe("send_limited");
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    const location = new URL(res.headers.get("location")!);
    const until = Number(location.searchParams.get("until"));
    expect(Math.abs(until - (Date.now() / 1000 + retryAfter))).toBeLessThan(5);
    // The screen names the time and offers no number form that cannot work until then.
    const page = await getInteraction(baseUrl, f.id, f.cookie, location.search);
    expect(page.html).toContain("Too many codes have been requested");
    const time = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
    expect(page.html).toContain(`Try again at ${time.format(new Date(until * 1000))} (in `);
    expect(page.html).not.toContain('name="msisdn"');
    expect(page.html).toContain('id="start-again"');
    // The subscriber, elsewhere, still gets a code.
    const own = await beginAuthorization(baseUrl, client);
    expect(errorOf(await post(own, "msisdn", { msisdn: s.msisdn }, newIp()))).toBeNull();
    expect(await db.message.count({ where: { msisdn: s.msisdn } })).toBe(6);
  });

  it("the per-number ceiling (20 per 15 minutes, known or unknown) needs several requesters, and counts only what they were allowed", async () => {
    const known = await createTestSubscriber();
    for (const msisdn of [known.msisdn, "447700999002"]) {
      const byRequester = [];
      for (let r = 0; r < 5; r++) {
        const ip = newIp();
        // Six tries each: the sixth is refused by the requester limit and does not count against the number.
        const statuses = [];
        for (let i = 0; i < 6; i++) statuses.push(errorOf(await post(await beginAuthorization(baseUrl, client), "msisdn", { msisdn }, ip)));
        byRequester.push(statuses.map((e) => (e === null ? "sent" : e)).join(" "));
      }
      const five = "sent sent sent sent sent send_limited";
      expect(byRequester).toEqual([five, five, five, five, Array(6).fill("send_limited").join(" ")]);
    }
    expect(await db.message.count({ where: { msisdn: known.msisdn } })).toBe(20);
  });

  it("at most 20 codes per client IP per hour, whatever the numbers", async () => {
    const ip = newIp();
    const results = [];
    for (let i = 0; i < 21; i++) {
      const f = await beginAuthorization(baseUrl, client);
      results.push(await post(f, "msisdn", { msisdn: `4477009991${String(i).padStart(2, "0")}` }, ip));
    }
    expect(results.slice(0, 20).every((r) => errorOf(r) === null)).toBe(true);
    expect(errorOf(results[20]!)).toBe("send_limited");
    const retryAfter = Number(results[20]!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another address is not affected.
    const f = await beginAuthorization(baseUrl, client);
    expect(errorOf(await post(f, "msisdn", { msisdn: "447700999150" }, newIp()))).toBeNull();
  });

  it("carrier-grade NAT ranges (CARRIER_NAT_RANGES) have their own, higher per-address limit", async () => {
    const nat = "100.64.7.9";
    const results = [];
    for (let i = 0; i < 31; i++) {
      results.push(errorOf(await post(await beginAuthorization(baseUrl, client), "msisdn", { msisdn: `4477009992${String(i).padStart(2, "0")}` }, nat)));
    }
    expect(results.slice(0, 30).every((e) => e === null)).toBe(true); // 20 would stop an ordinary address
    expect(results[30]).toBe("send_limited");
  });

  it("IPv6: one /64 is one address for the limits", async () => {
    const results = [];
    for (let i = 0; i < 21; i++) {
      const ip = `2001:db8:1:2::${(i + 1).toString(16)}`;
      results.push(errorOf(await post(await beginAuthorization(baseUrl, client), "msisdn", { msisdn: `4477009993${String(i).padStart(2, "0")}` }, ip)));
    }
    expect(results.slice(0, 20).every((e) => e === null)).toBe(true);
    expect(results[20]).toBe("send_limited");
    expect(errorOf(await post(await beginAuthorization(baseUrl, client), "msisdn", { msisdn: "447700999399" }, "2001:db8:1:3::1"))).toBeNull();
  });

  it("handset enrolment: the same requester limits; the 429 page says when, with no form", async () => {
    const s = await createTestSubscriber();
    const enrol = (ip: string) => fetch(`${baseUrl}/device/enrol/start`, {
      method: "POST", redirect: "manual", body: new URLSearchParams({ msisdn: s.msisdn }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, "x-forwarded-for": ip },
    });
    const stranger = newIp();
    const statuses = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) statuses.push((last = await enrol(stranger)).status);
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    const retryAfter = Number(last!.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    const html = await last!.text();
    const time = new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" });
    expect(html).toMatch(new RegExp(`Too many codes were requested\\. Try again at (${[-1, 0, 1]
      .map((d) => time.format(new Date(Date.now() + (retryAfter + d) * 1000))).join("|")}) \\(in \\d+ minutes?\\)`));
    expect(html).not.toContain("<form");
    expect((await enrol(newIp())).status).toBe(303); // the subscriber, elsewhere
  });

  it("at most 3 new codes per sign-in; the current code stays valid", async () => {
    const s = await createTestSubscriber();
    const ip = newIp();
    const f = await beginAuthorization(baseUrl, client);
    await post(f, "msisdn", { msisdn: s.msisdn }, ip);
    for (let i = 0; i < 3; i++) expect(errorOf(await post(f, "resend", {}, ip))).toBeNull();
    const code = (await latestCode(s.msisdn))!;
    const limited = await post(f, "resend", {}, ip);
    expect(errorOf(limited)).toBe("send_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const page = await getInteraction(baseUrl, f.id, f.cookie, new URL(limited.headers.get("location")!).search);
    expect(page.html).toContain("Try again at ");
    expect(page.html).not.toContain('id="resend"');
    expect(page.html).toContain('name="code"'); // the current code still works
    expect(await db.message.count({ where: { msisdn: s.msisdn } })).toBe(4);
    expect((await post(f, "code", { code }, ip)).headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
  });
});

describe("client authentication throttling", () => {
  const tokenRequest = (id: string, secret: string, ip: string, endpoint = "/token", body: Record<string, string> = {}) =>
    fetch(`${baseUrl}${endpoint}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(id, secret), "x-forwarded-for": ip },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "x", redirect_uri: "https://rp.example.test/callback", ...body }),
    });

  it("10 failures for a client_id from one address: 429 invalid_client with Retry-After there, the right secret still passes everywhere", async () => {
    const c = await createTestClient();
    const attacker = newIp();
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
    expect((await tokenRequest(c.id, c.secret!, newIp())).status).toBe(400);
    for (const endpoint of ["/revoke", "/introspect"]) {
      expect((await tokenRequest(c.id, c.secret!, newIp(), endpoint, { token: "t" })).status).toBe(200);
    }
    // Even from the attacker's address (an aggregator, a NAT): the right secret passes, wrong ones stay 429.
    expect((await tokenRequest(c.id, c.secret!, attacker)).status).toBe(400);
    expect((await tokenRequest(c.id, "wrong-again", attacker)).status).toBe(429);
    const audited = await db.auditEvent.findMany({ where: { type: "client_auth_throttled", clientId: c.id } });
    expect(audited).toHaveLength(1);
  });

  it("50 failures from one address, whatever the client_id: 429 without an scrypt, but other clients' right secrets pass", async () => {
    const ip = newIp();
    const statuses = [];
    for (let i = 0; i < 51; i++) statuses.push((await tokenRequest(`nobody-${i}`, "secret", ip)).status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses[50]).toBe(429);
    // A client that authenticated before (anywhere, any instance) carries a mark: it passes from the throttled address.
    const seen = await createTestClient();
    expect((await tokenRequest(seen.id, seen.secret!, newIp())).status).toBe(400);
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

describe("audit log", () => {
  it("records sign-in, consent, token issuance and revocation, withdrawal: pseudonymised, with client and IP, never secrets", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const c = await createTestClient();
    const ref = pseudonymiseSubscriber(s.id);
    // A failed and a successful sign-in, then consent (level 3: the PIN is typed on the code screen).
    await failPins(s, 1);
    const q = new URLSearchParams({
      client_id: c.id, client_name: c.name, response_type: "code", redirect_uri: c.redirectUri,
      scope: "openid mc_authn offline_access", acr_values: "3", state: "st", nonce: "n", version: "mc_v1.1",
    });
    const { callbackUrl } = await signInAndConsent({ authorizationUrl: `${baseUrl}/authorize?${q}`, msisdn: s.msisdn, pin: s.pin });
    const code = callbackUrl.searchParams.get("code")!;
    const tokenRes = await redeemCode(baseUrl, c, code);
    expect(tokenRes.status).toBe(200);
    const tokens = await tokenRes.json();
    const revoke = await fetch(`${baseUrl}/revoke`, {
      method: "POST", body: new URLSearchParams({ token: tokens.access_token }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic(c.id, c.secret!), "x-forwarded-for": "192.0.2.77" },
    });
    expect(revoke.status).toBe(200);
    expect((await admin("subscriber", "withdraw-consent", s.msisdn, "--client", c.id)).code).toBe(0);

    const events = await db.auditEvent.findMany({ where: { subscriberRef: ref }, orderBy: { at: "asc" } });
    const kinds = events.map((e) => `${e.type}:${e.outcome}`);
    for (const k of ["sign_in:failure", "sign_in:success", "consent_given:success", "token_issued:success",
      "token_revoked:success", "consent_withdrawn:success", "admin_subscriber_withdraw_consent:success"]) {
      expect(kinds).toContain(k);
    }
    const byType = (t: string, outcome = "success") => events.find((e) => e.type === t && e.outcome === outcome)!;
    expect(byType("sign_in")).toMatchObject({ clientId: c.id, ip: "127.0.0.1" });
    expect(byType("sign_in", "failure")).toMatchObject({ clientId: client.id });
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
      client_id: client.id, client_name: client.name, response_type: "code", redirect_uri: client.redirectUri,
      scope: "openid mc_authn", acr_values: "2", state: "st", nonce: "n", version: "mc_v1.1",
    });
    await signInAndConsent({ authorizationUrl: `${baseUrl}/authorize?${q}`, msisdn: s.msisdn, decision: "deny" });
    const denied = await db.auditEvent.findMany({ where: { type: "consent_denied", subscriberRef: pseudonymiseSubscriber(s.id) } });
    expect(denied).toHaveLength(1);
    expect(denied[0]).toMatchObject({ outcome: "denied", clientId: client.id });
  });

  it("is append-only: the database refuses UPDATE and DELETE", async () => {
    const row = await db.auditEvent.findFirstOrThrow();
    await expect(db.auditEvent.update({ where: { id: row.id }, data: { outcome: "success" } })).rejects.toThrow(/append-only/);
    await expect(db.auditEvent.deleteMany({})).rejects.toThrow(/append-only/);
    expect(await db.auditEvent.count()).toBeGreaterThan(0);
  });

  it("`npm run admin -- audit` lists and filters by type, subscriber, client, since and limit", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    await failPins(s, 2);
    const all = await adminJson("audit", "--limit", "1000");
    expect(all.events.length).toBeGreaterThan(5);
    const mine = await adminJson("audit", "--subscriber", s.msisdn);
    expect(mine.events).toHaveLength(2);
    expect(mine.events.every((e: { type: string; outcome: string; subscriber_ref: string }) =>
      e.type === "sign_in" && e.outcome === "failure" && e.subscriber_ref === pseudonymiseSubscriber(s.id))).toBe(true);
    const byType = await adminJson("audit", "--type", "pin_lockout");
    expect(byType.events.length).toBeGreaterThan(0);
    expect(byType.events.every((e: { type: string }) => e.type === "pin_lockout")).toBe(true);
    const byClient = await adminJson("audit", "--client", client.id, "--type", "sign_in", "--limit", "3");
    expect(byClient.events).toHaveLength(3);
    expect(byClient.events.every((e: { client_id: string }) => e.client_id === client.id)).toBe(true);
    const times = byClient.events.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await adminJson("audit", "--since", new Date(Date.now() + 60_000).toISOString())).events).toHaveLength(0);
    expect((await adminJson("audit", "--since", "10m", "--subscriber", s.msisdn)).events).toHaveLength(2);
    const text = await admin("audit", "--subscriber", s.msisdn);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("sign_in  failure");
    expect(text.stdout).not.toContain(s.msisdn);
    const bad = await admin("audit", "--since", "yesterday", "--json");
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error).toContain("--since");
  }, 240_000); // nine CLI start-ups
});

type Run = { code: number; stdout: string; stderr: string };
function admin(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/admin.ts", ...args], {
      cwd: root, env: { ...process.env, DATABASE_URL: server.databaseUrl },
    }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}
async function adminJson(...args: string[]) {
  const r = await admin(...args, "--json");
  if (r.code !== 0) throw new Error(`admin ${args.join(" ")} failed: ${r.stdout} ${r.stderr}`);
  return JSON.parse(r.stdout);
}
