import { randomBytes, scryptSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startServer, type RunningServer } from "@/test/support/server";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { MAX_CODE_ATTEMPTS, PIN_FAILURES_BEFORE_LOCKOUT } from "@/lib/security/limits";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { beginAuthorization, postStep, type Flow } from "@/e2e/fixtures/interaction-http";
import { authorizeMobile } from "../../support/mobile-support";

/**
 * Issue 15, "Attempt counters that hold under parallel requests": every code and PIN attempt is
 * reserved in the database before it is evaluated, so a burst of parallel submissions gets no more
 * evaluations than the limit, and a right PIN cannot succeed once the lockout threshold is reached.
 * "Evaluated" is counted from the audit log (one event per evaluated attempt, with its reason) and
 * from the answers. A server of its own with the real attempt limits (they are constants; only the
 * code-sending limits are lifted, so one number can receive the codes of several sign-ins).
 */
const BURST = 30;
let server: RunningServer;
let baseUrl = "";
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  server = await startServer({ name: "attempt-races" });
  baseUrl = server.baseUrl;
  // This worker's `db` talks to this server's database (nothing has read the configuration yet).
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

type Client = Awaited<ReturnType<typeof createTestClient>>;
type Subscriber = Awaited<ReturnType<typeof createTestSubscriber>>;

const latestCode = async (msisdn: string) => {
  const m = await db.message.findFirst({ where: { msisdn }, orderBy: { createdAt: "desc" } });
  return /\b(\d{6})\b/.exec(m!.body)![1]!;
};
const otherThan = (code: string) => (code === "000000" ? "111111" : "000000");
const wrongPin = (pin: string) => (pin === "1357" ? "2468" : "1357");
const post = (f: Flow, step: string, fields: Record<string, string>) =>
  postStep(baseUrl, f.id, step, { cookie: f.cookie, fields: { csrf_token: f.csrf, ...fields } });
const errorOf = (res: Response) => new URL(res.headers.get("location")!).searchParams.get("e");
const tally = (xs: (string | null)[]) =>
  xs.reduce<Record<string, number>>((t, x) => ({ ...t, [String(x)]: (t[String(x)] ?? 0) + 1 }), {});
const parallel = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

/** Audit events of sign-in attempts for `subscriber` whose detail names `reason`. */
const audited = (subscriber: Subscriber, reason: string) => db.auditEvent.count({
  where: { type: "sign_in", subscriberRef: pseudonymiseSubscriber(subscriber.id), detail: { contains: `"reason":"${reason}"` } },
});
const lockouts = (subscriber: Subscriber) =>
  db.auditEvent.count({ where: { type: "pin_lockout", subscriberRef: pseudonymiseSubscriber(subscriber.id) } });
const successes = (subscriber: Subscriber) =>
  db.auditEvent.count({ where: { type: "sign_in", outcome: "success", subscriberRef: pseudonymiseSubscriber(subscriber.id) } });
const subscriberRow = (s: Subscriber) => db.subscriber.findUniqueOrThrow({ where: { id: s.id } });

/** A sign-in at the code step for `subscriber` (a code was sent); returns the flow and the code. */
async function atCodeStep(client: Client, subscriber: Subscriber, acr: "2" | "3") {
  const f = await beginAuthorization(baseUrl, client, { acr_values: acr });
  expect((await post(f, "msisdn", { msisdn: subscriber.msisdn })).status).toBe(303);
  return { f, code: await latestCode(subscriber.msisdn) };
}

/**
 * Runs `attempt` (the right PIN of `s`) with a PIN hash that takes about a second to check (scrypt
 * p=16) and, once the attempt is under way, locks `s` as a parallel fifth wrong PIN would.
 */
async function lockWhileChecking<T>(s: Subscriber, attempt: () => Promise<T>): Promise<T> {
  const salt = randomBytes(16);
  const hash = scryptSync(s.pin, salt, 32, { N: 16384, r: 8, p: 16, maxmem: 64 * 1024 * 1024 });
  const pinHash = `scrypt$16384$8$16$${salt.toString("base64url")}$${hash.toString("base64url")}`;
  await db.subscriber.update({ where: { id: s.id }, data: { pinHash } });
  const result = attempt();
  // Until its reservation shows (a second of scrypt follows it); without reservations, briefly.
  for (let i = 0; i < 30 && (await subscriberRow(s)).failedPinAttempts === 0; i++) await new Promise((r) => setTimeout(r, 10));
  await db.subscriber.update({
    where: { id: s.id }, data: { failedPinAttempts: 0, lockoutCount: 1, lockedUntil: new Date(Date.now() + 300_000) },
  });
  return result;
}
const expectNotSignedIn = async (f: Flow) =>
  expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } })).status).toBe("pending");
const expectUnanswered = async (id: string) =>
  expect((await db.deviceRequest.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
const expectStillLocked = async (s: Subscriber) => {
  const row = await subscriberRow(s);
  expect(row.lockoutCount).toBe(1);
  expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 290_000);
};

describe("one-time code attempts under parallel submissions", () => {
  for (const acr of ["2", "3"] as const) {
    it(`level ${acr}: ${BURST} parallel wrong codes evaluate exactly ${MAX_CODE_ATTEMPTS}; the right code afterwards is burnt`, async () => {
      const client = await createTestClient();
      const s = await createTestSubscriber({ pin: "8642" });
      const { f, code } = await atCodeStep(client, s, acr);
      const wrong = { code: otherThan(code), pin: "1111" };
      const answers = await parallel(BURST, async () => errorOf(await post(f, "code", wrong)));
      expect(tally(answers)).toEqual({ code_invalid: MAX_CODE_ATTEMPTS - 1, code_burnt: BURST - MAX_CODE_ATTEMPTS + 1 });
      expect(await audited(s, "code_invalid")).toBe(MAX_CODE_ATTEMPTS);
      const row = await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } });
      expect(row.otpAttempts).toBe(MAX_CODE_ATTEMPTS);
      expect(errorOf(await post(f, "code", { code, pin: s.pin }))).toBe("code_burnt");
      await expectNotSignedIn(f);
      expect(await successes(s)).toBe(0);
    });
  }
});

describe("PIN attempts under parallel submissions (sign-in screen, level 3)", () => {
  /** `n` sign-ins of `s` at the code step, each with its own (right) code. */
  const signIns = async (client: Client, s: Subscriber, n: number) => {
    const flows = [];
    for (let i = 0; i < n; i++) flows.push(await atCodeStep(client, s, "3"));
    return flows;
  };

  it(`${BURST} parallel wrong PINs (right codes): ${PIN_FAILURES_BEFORE_LOCKOUT} evaluated, one lockout; the right PIN is then refused`, async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "8642" });
    const flows = await signIns(client, s, BURST / MAX_CODE_ATTEMPTS);
    await parallel(BURST, (i) => {
      const { f, code } = flows[i % flows.length]!;
      return post(f, "code", { code, pin: wrongPin(s.pin) });
    });
    // The fifth wrong PIN locks (audited as pin_locked, with the one pin_lockout event); the rest are not evaluated.
    expect(await audited(s, "pin_invalid")).toBe(PIN_FAILURES_BEFORE_LOCKOUT - 1);
    expect(await audited(s, "pin_locked")).toBe(BURST - PIN_FAILURES_BEFORE_LOCKOUT + 1);
    expect(await lockouts(s)).toBe(1);
    expect(await subscriberRow(s)).toMatchObject({ failedPinAttempts: 0, lockoutCount: 1 });

    const { f, code } = await atCodeStep(client, s, "3");
    expect(errorOf(await post(f, "code", { code, pin: s.pin }))).toBe("pin_locked");
    await expectNotSignedIn(f);
    expect((await subscriberRow(s)).lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 290_000);
    expect(await successes(s)).toBe(0);
  });

  it("the right PIN is refused once the threshold is reached, even before the lockout is written", async () => {
    // The moment between the fifth wrong PIN being counted and its lockout being written.
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "8642" });
    const { f, code } = await atCodeStep(client, s, "3");
    await db.subscriber.update({ where: { id: s.id }, data: { failedPinAttempts: PIN_FAILURES_BEFORE_LOCKOUT } });
    expect(errorOf(await post(f, "code", { code, pin: s.pin }))).toBe("pin_locked");
    await expectNotSignedIn(f);
    expect(await subscriberRow(s)).toMatchObject({ failedPinAttempts: PIN_FAILURES_BEFORE_LOCKOUT, lockoutCount: 0 });
  });

  it("a lockout written while the right PIN is being checked refuses it, and stays", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "8642" });
    const { f, code } = await atCodeStep(client, s, "3");
    expect(errorOf(await lockWhileChecking(s, () => post(f, "code", { code, pin: s.pin })))).toBe("pin_locked");
    await expectNotSignedIn(f);
    await expectStillLocked(s);
    expect(await successes(s)).toBe(0);
  });

  it("a full budget left unresolved for over a minute (its process died) no longer blocks the PIN", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "8642" });
    const { f, code } = await atCodeStep(client, s, "3");
    await db.subscriber.update({
      where: { id: s.id }, data: { failedPinAttempts: PIN_FAILURES_BEFORE_LOCKOUT, updatedAt: new Date(Date.now() - 120_000) },
    });
    expect((await post(f, "code", { code, pin: s.pin })).headers.get("location")).toBe(`${baseUrl}/authorize/resume/${f.id}`);
    expect(await subscriberRow(s)).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });
  });

  it("the right PIN in a burst of wrong ones: at most 5 evaluated per lockout, and a lockout once written stays", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "8642" });
    const flows = await signIns(client, s, BURST / MAX_CODE_ATTEMPTS);
    const rightAt = BURST / 2;
    await parallel(BURST, (i) => {
      const { f, code } = flows[i % flows.length]!;
      return post(f, "code", { code, pin: i === rightAt ? s.pin : wrongPin(s.pin) });
    });
    const signedIn = await successes(s);
    const locked = await lockouts(s);
    // The right PIN may win while the budget lasts (it was one of the first five), never after it.
    expect(signedIn).toBeLessThanOrEqual(1);
    expect(locked).toBeLessThanOrEqual(1);
    expect(await audited(s, "pin_invalid")).toBeLessThanOrEqual((PIN_FAILURES_BEFORE_LOCKOUT - 1) * (1 + signedIn));
    if (locked) expect((await subscriberRow(s)).lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 290_000);
    else expect(signedIn).toBe(1);
  });
});

describe("PIN attempts under parallel answers on the handset (level 3)", () => {
  /** An enrolled handset and a level-3 prompt=mobile request pending on it; `done()` drops the waiting /authorize. */
  async function pendingOnHandset(s: Subscriber) {
    const client = await createTestClient();
    const secret = randomToken(32);
    await db.device.create({ data: { id: randomToken(12), subscriberId: s.id, name: "Test phone", secretHash: sha256(secret) } });
    const q = new URLSearchParams({
      client_id: client.id, redirect_uri: client.redirectUri, response_type: "code", scope: "openid", acr_values: "3",
      state: `st-${randomToken(6)}`, nonce: `n-${randomToken(6)}`, prompt: "mobile", login_hint: `MSISDN:${s.msisdn}`,
    });
    // As a browser: the waiting page shows the check code (number matching), its refresh holds at /authorize/wait/{id}.
    const waiting = new AbortController();
    const { pending, checkCode } = await authorizeMobile(Object.fromEntries(q), { baseUrl, signal: waiting.signal });
    const authorize = pending.catch(() => null);
    check = checkCode;
    const row = await db.deviceRequest.findFirstOrThrow({ where: { subscriberId: s.id, status: "pending" } });
    return { id: row.id, cookie: `op_device=${secret}`, done: () => { waiting.abort(); return authorize; } };
  }
  let check = "";
  const answer = async (id: string, cookie: string, pin: string) => {
    const res = await fetch(`${baseUrl}/handset/requests/${id}`, {
      method: "POST", redirect: "manual", body: new URLSearchParams({ decision: "approve", pin, check }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie },
    });
    expect(res.status).toBe(303);
    return new URL(res.headers.get("location")!).searchParams.get("result");
  };

  it(`${BURST} parallel wrong PINs: ${PIN_FAILURES_BEFORE_LOCKOUT - 1} answered pin_invalid, one lockout; the right PIN is then refused`, async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const { id, cookie, done } = await pendingOnHandset(s);
    const answers = await parallel(BURST, () => answer(id, cookie, wrongPin(s.pin)));
    const evaluatedWrong = PIN_FAILURES_BEFORE_LOCKOUT - 1;
    expect(tally(answers)).toEqual({ pin_invalid: evaluatedWrong, locked: BURST - evaluatedWrong });
    expect(await lockouts(s)).toBe(1);
    expect(await subscriberRow(s)).toMatchObject({ failedPinAttempts: 0, lockoutCount: 1 });
    expect(await answer(id, cookie, s.pin)).toBe("locked");
    await expectUnanswered(id);
    await done();
  });

  it("the right PIN is refused once the threshold is reached, even before the lockout is written", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const { id, cookie, done } = await pendingOnHandset(s);
    await db.subscriber.update({ where: { id: s.id }, data: { failedPinAttempts: PIN_FAILURES_BEFORE_LOCKOUT } });
    expect(await answer(id, cookie, s.pin)).toBe("locked");
    await expectUnanswered(id);
    await done();
  });

  it("a lockout written while the right PIN is being checked refuses it, and stays", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const { id, cookie, done } = await pendingOnHandset(s);
    expect(await lockWhileChecking(s, () => answer(id, cookie, s.pin))).toBe("locked");
    await expectUnanswered(id);
    await expectStillLocked(s);
    await done();
  });

  it("the right PIN in a burst of wrong ones: at most 5 evaluated per lockout, and a lockout once written stays", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const { id, cookie, done } = await pendingOnHandset(s);
    const answers = tally(await parallel(BURST, (i) => answer(id, cookie, i === BURST / 2 ? s.pin : wrongPin(s.pin))));
    const approved = answers.approved ?? 0;
    expect(approved).toBeLessThanOrEqual(1);
    expect(await lockouts(s)).toBeLessThanOrEqual(1);
    expect(answers.pin_invalid ?? 0).toBeLessThanOrEqual((PIN_FAILURES_BEFORE_LOCKOUT - 1) * (1 + approved));
    if (await lockouts(s)) expect((await subscriberRow(s)).lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 290_000);
    else expect(approved).toBe(1);
    await done();
  });
});

describe("handset enrolment code attempts under parallel submissions", () => {
  const enrol = async (cookie: string, code: string) => {
    const res = await fetch(`${baseUrl}/handset/enrol/confirm`, {
      method: "POST", redirect: "manual", body: new URLSearchParams({ code, name: "Race phone" }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie },
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!);
    return location.searchParams.get("error") ?? location.searchParams.get("result");
  };
  const startEnrolment = async (s: Subscriber) => {
    const res = await fetch(`${baseUrl}/handset/enrol/start`, {
      method: "POST", redirect: "manual", body: new URLSearchParams({ msisdn: s.msisdn }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    });
    expect(res.status).toBe(303);
    return { cookie: res.headers.get("set-cookie")!.split(";")[0]!, code: await latestCode(s.msisdn) };
  };

  it(`${BURST} parallel wrong codes evaluate exactly ${MAX_CODE_ATTEMPTS}; the right code afterwards registers nothing`, async () => {
    const s = await createTestSubscriber();
    const { cookie, code } = await startEnrolment(s);
    const answers = await parallel(BURST, () => enrol(cookie, otherThan(code)));
    expect(tally(answers)).toEqual({ code_invalid: MAX_CODE_ATTEMPTS, code_expired: BURST - MAX_CODE_ATTEMPTS });
    expect(await enrol(cookie, code)).toBe("code_expired");
    expect(await db.device.count({ where: { subscriberId: s.id } })).toBe(0);
  });

  it("the right code sent in parallel registers exactly one handset; the others read expired", async () => {
    const s = await createTestSubscriber();
    const { cookie, code } = await startEnrolment(s);
    const answers = await parallel(MAX_CODE_ATTEMPTS, () => enrol(cookie, code));
    expect(tally(answers)).toEqual({ enrolled: 1, code_expired: MAX_CODE_ATTEMPTS - 1 });
    expect(await db.device.count({ where: { subscriberId: s.id } })).toBe(1);
  });
});
