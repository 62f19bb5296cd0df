import { afterEach, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
import { db } from "@/lib/db";
import { consoleCookieNames, consoleSecret } from "@/lib/console/console-session";
import { STAFF_FAILURES_BEFORE_LOCKOUT } from "@/lib/console/verify-staff-sign-in";
import { CONSOLE_SIGN_IN_FAILURES_PER_IP } from "@/lib/security/limits";
import { baseUrl } from "../../support/authorize-support";
import { consoleSignIn, createTestStaff, fetchFrom, freshTotp, loopbackAddress } from "../../support/console-support";

/** Why a sign-in was refused: the `e` of the sign-in page it was sent back to. */
const refusal = (p: Promise<unknown>) => p.then(() => "signed in", (err: Error) => /[?&]e=(\w+)/.exec(err.message)?.[1] ?? err.message);

/**
 * The console sign-in's defences (issue 22): the per-account lockout, its reservation under parallel
 * guesses, the per-address limit, TOTP replay, and the idle renewal of the session cookie. Every test
 * that fails sign-ins on purpose sends them from a loopback address of its own (the limit is per address).
 */
describe("console sign-in hardening", () => {
  afterEach(() => vi.useRealTimers());

  it("locks an account after 5 failures; the right password and code are then refused too, answered as a wrong one",
    async () => {
      const staff = await createTestStaff("viewer");
      const from = loopbackAddress();
      for (let i = 1; i <= STAFF_FAILURES_BEFORE_LOCKOUT; i++) {
        const e = await refusal(consoleSignIn(baseUrl, { ...staff, password: `wrong-${i}` }, "000000", { from }));
        expect(e).toBe("invalid");
      }
      expect(await refusal(consoleSignIn(baseUrl, staff, undefined, { from }))).toBe("invalid");
      const row = await db.staff.findUniqueOrThrow({ where: { username: staff.username } });
      expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
      // The audit log still tells the lockout apart.
      const outcomes = (await db.auditEvent.findMany({ where: { staffId: row.id, type: "staff_sign_in" } }))
        .map((e) => e.outcome);
      expect(outcomes.filter((o) => o === "locked")).toHaveLength(2);
    });

  it("answers an existing member and an unknown username alike, locked or not (no username enumeration)", async () => {
    const staff = await createTestStaff("viewer");
    const unknown = { ...staff, username: `nobody-${staff.username}` };
    const known: string[] = [];
    const none: string[] = [];
    for (let i = 0; i < STAFF_FAILURES_BEFORE_LOCKOUT + 1; i++) {
      known.push(await refusal(consoleSignIn(baseUrl, { ...staff, password: `x-${i}` }, "000000", { from: loopbackAddress() })));
      none.push(await refusal(consoleSignIn(baseUrl, { ...unknown, password: `x-${i}` }, "000000", { from: loopbackAddress() })));
    }
    expect(known).toEqual(none);
    expect(new Set(known)).toEqual(new Set(["invalid"]));
  });

  it("gives 50 parallel guesses at most 5 password checks", async () => {
    const staff = await createTestStaff("viewer");
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) =>
      refusal(consoleSignIn(baseUrl, { ...staff, password: `guess-${i}` }, "000000", { from: loopbackAddress() }))));
    expect(results.every((e) => e === "invalid")).toBe(true);
    const { id } = await db.staff.findUniqueOrThrow({ where: { username: staff.username } });
    const events = await db.auditEvent.findMany({ where: { staffId: id, type: "staff_sign_in" } });
    const checked = events.filter((e) => JSON.parse(e.detail ?? "{}").reason === "password");
    expect(checked.length).toBeLessThanOrEqual(STAFF_FAILURES_BEFORE_LOCKOUT);
    expect(events.length).toBe(50);
    expect(await refusal(consoleSignIn(baseUrl, staff, undefined, { from: loopbackAddress() }))).toBe("invalid");
    expect(await db.auditEvent.count({ where: { staffId: id, type: "staff_sign_in", outcome: "locked" } }))
      .toBeGreaterThanOrEqual(2);
  });

  it("accepts one TOTP code once, even when two sign-ins send it at the same moment", async () => {
    const staff = await createTestStaff("viewer");
    const code = freshTotp(staff);
    const from = loopbackAddress();
    const both = await Promise.all([refusal(consoleSignIn(baseUrl, staff, code, { from })),
      refusal(consoleSignIn(baseUrl, staff, code, { from }))]);
    expect(both.sort()).toEqual(["invalid", "signed in"]);
  });

  it(`refuses an address after ${CONSOLE_SIGN_IN_FAILURES_PER_IP} failed sign-ins, whatever the username; others still sign in`, async () => {
    const from = loopbackAddress();
    const nobody = { username: "nobody-here", password: "x", totpSecret: "", role: "viewer" as const };
    for (let i = 0; i < CONSOLE_SIGN_IN_FAILURES_PER_IP; i++) {
      expect(await refusal(consoleSignIn(baseUrl, { ...nobody, username: `nobody-${i}` }, "123456", { from }))).toBe("invalid");
    }
    const staff = await createTestStaff("viewer");
    expect(await refusal(consoleSignIn(baseUrl, staff, undefined, { from }))).toBe("limited");
    const signin = await fetch(`${baseUrl}/console/auth/signin?callbackUrl=%2Fconsole`, { redirect: "manual" });
    const csrfCookie = signin.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const page = await (await fetchFrom(`${baseUrl}/console/sign-in?e=limited`, { headers: { cookie: csrfCookie } }, from)).text();
    expect(page).toContain("Too many failed sign-ins from your network");
    expect(await refusal(consoleSignIn(baseUrl, staff, undefined, { from: loopbackAddress() }))).toBe("signed in");
    const limited = await db.auditEvent.count({ where: { type: "staff_sign_in", outcome: "throttled", ip: from } });
    expect(limited).toBeGreaterThanOrEqual(1);
  });

  it("does not count successful sign-ins against the address", async () => {
    const from = loopbackAddress();
    for (let i = 0; i < CONSOLE_SIGN_IN_FAILURES_PER_IP + 3; i++) {
      expect(await refusal(consoleSignIn(baseUrl, await createTestStaff("viewer"), undefined, { from }))).toBe("signed in");
    }
  });

  it("renews a session cookie older than a minute on a console page, keeping its member and start", async () => {
    const staff = await createTestStaff("viewer");
    const session = await consoleSignIn(baseUrl, staff);
    const row = await db.staff.findUniqueOrThrow({ where: { username: staff.username } });
    const started = Math.floor(Date.now() / 1000) - 600;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() - 120_000);
    const old = await encode({ secret: consoleSecret(), maxAge: 15 * 60,
      token: { sub: row.id, staffId: row.id, sv: row.sessionVersion, started } });
    vi.useRealTimers();
    const name = consoleCookieNames().sessionToken;
    const res = await fetch(`${baseUrl}/console`, { headers: { cookie: `${name}=${old}` }, redirect: "manual" });
    expect(res.status).toBe(200);
    const renewed = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
    expect(renewed).toMatch(/Path=\/console; Expires=.*; HttpOnly; SameSite=Lax/);
    const value = renewed!.split(";")[0]!.slice(name.length + 1);
    expect(value).not.toBe(old);
    const again = await fetch(`${baseUrl}/console`, { headers: { cookie: `${name}=${value}` }, redirect: "manual" });
    expect(again.status).toBe(200);
    expect(again.headers.getSetCookie().some((c) => c.startsWith(`${name}=`))).toBe(false); // fresh: not renewed again
    expect(await again.text()).toContain(staff.username);
    // A cookie of a session past its absolute limit is neither renewed nor accepted.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() - 120_000);
    const ancient = await encode({ secret: consoleSecret(), maxAge: 15 * 60,
      token: { sub: row.id, staffId: row.id, sv: row.sessionVersion, started: started - 9 * 3600 } });
    vi.useRealTimers();
    const expired = await fetch(`${baseUrl}/console`, { headers: { cookie: `${name}=${ancient}` }, redirect: "manual" });
    expect(expired.headers.getSetCookie().some((c) => c.startsWith(`${name}=`) && !c.includes("Max-Age=0"))).toBe(false);
    expect(expired.headers.get("location")).toContain("/console/sign-in");
    expect((await session.get("/console")).status).toBe(200);
  });
});
