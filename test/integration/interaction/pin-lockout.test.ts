import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { maskMsisdn } from "@/lib/messaging/mask-msisdn";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { useAbuseServer, errorOf, latestCode, subscriberRow } from "@/test/support/abuse-server";
import { createTestSubscriber } from "@/test/support/fixtures";
import { getInteraction } from "@/e2e/fixtures/interaction-http";
/**
 * The PIN lockout of the sign-in screen (issue 6, "Abuse and brute force"): 5 wrong PINs lock, the
 * lockout escalates, a right PIN resets it, the operator lifts it, and a locked number looks unknown.
 * Against a server of its own with the production limits (test/support/abuse-server.ts).
 */
const h = useAbuseServer("pin-lockout");
vi.setConfig({ testTimeout: 90_000 });

describe("PIN lockout", () => {
  it("locks after 5 consecutive wrong PINs for 5 minutes; the right PIN is refused while locked", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const { last } = await h.failPins(s, 4);
    expect(last).toBe("pin_invalid");
    expect((await subscriberRow(s.id)).lockedUntil).toBeNull();
    const { f, last: fifth, ip } = await h.failPins(s, 1);
    expect(fifth).toBe("pin_locked");
    const row = await subscriberRow(s.id);
    expect(row.lockoutCount).toBe(1);
    expect(row.failedPinAttempts).toBe(0);
    const seconds = (row.lockedUntil!.getTime() - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(290);
    expect(seconds).toBeLessThanOrEqual(300);
    // The subscriber (who has the code) is told; the right PIN does not get through.
    const page = await getInteraction(h.baseUrl, f.id, f.cookie, "?e=pin_locked");
    expect(page.html).toContain("Too many wrong PINs");
    const ok = await h.post(f, "code", { code: (await latestCode(s.msisdn))!, pin: s.pin }, ip);
    expect(errorOf(ok)).toBe("pin_locked");
    // The 303 says when the lockout ends (Retry-After, and `until` for the screen, which shows the time).
    const until = Number(new URL(ok.headers.get("location")!).searchParams.get("until"));
    expect(Math.abs(until * 1000 - row.lockedUntil!.getTime())).toBeLessThan(2_000);
    expect(Number(ok.headers.get("retry-after"))).toBeGreaterThan(280);
    const told = await getInteraction(h.baseUrl, f.id, f.cookie, new URL(ok.headers.get("location")!).search);
    expect(told.html).toMatch(/Try again at \d\d:\d\d/);
    expect(told.html).not.toContain('name="pin"');
    expect((await db.authorizationRequest.findUniqueOrThrow({ where: { id: f.id } })).status).toBe("pending");
    const lockouts = await db.auditEvent.findMany({ where: { type: "pin_lockout", subscriberRef: pseudonymiseSubscriber(s.id) } });
    expect(lockouts).toHaveLength(1);
    expect(lockouts[0]).toMatchObject({ outcome: "locked", clientId: h.client.id });
    expect(JSON.parse(lockouts[0]!.detail!)).toMatchObject({ lockout_number: 1, seconds: 300 });
  });

  it("escalates: 15 minutes, then 1 hour, then 24 hours", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    for (const [previous, expected] of [[1, 900], [2, 3600], [3, 86_400], [7, 86_400]] as const) {
      await db.subscriber.update({ where: { id: s.id }, data: { lockoutCount: previous, failedPinAttempts: 4, lockedUntil: null } });
      expect((await h.failPins(s, 1)).last).toBe("pin_locked");
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
    const ip = h.newIp();
    const { f } = await h.level3(s.msisdn, ip);
    const ok = await h.post(f, "code", { code: (await latestCode(s.msisdn))!, pin: s.pin }, ip);
    expect(ok.headers.get("location")).toBe(`${h.baseUrl}/authorize/resume/${f.id}`);
    expect(await subscriberRow(s.id)).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });
  });

  it("`npm run admin -- subscriber unlock` lifts the lockout and is audited", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    await h.failPins(s, 5);
    expect((await subscriberRow(s.id)).lockedUntil).not.toBeNull();
    const r = await h.admin("subscriber", "unlock", s.msisdn);
    expect(r.code).toBe(0);
    expect(await subscriberRow(s.id)).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0, lockedUntil: null });
    const ip = h.newIp();
    const { f } = await h.level3(s.msisdn, ip);
    const ok = await h.post(f, "code", { code: (await latestCode(s.msisdn))!, pin: s.pin }, ip);
    expect(ok.headers.get("location")).toBe(`${h.baseUrl}/authorize/resume/${f.id}`);
    const events = await db.auditEvent.findMany({ where: { type: "admin_subscriber_unlock", subscriberRef: pseudonymiseSubscriber(s.id) } });
    expect(events).toHaveLength(1);
  });

  it("an unknown number and a locked number look the same from outside: screens, errors and timing", async () => {
    const locked = await createTestSubscriber({ pin: "8642" });
    await db.subscriber.update({ where: { id: locked.id }, data: { lockoutCount: 1, lockedUntil: new Date(Date.now() + 600_000) } });
    const unknown = "447700999001";
    const observe = async (msisdn: string) => {
      const ip = h.newIp();
      const { f, res } = await h.level3(msisdn, ip);
      const page = await getInteraction(h.baseUrl, f.id, f.cookie);
      const times: number[] = [];
      const errors: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const r = await h.post(f, "code", { code: "000000", pin: "1111" }, ip);
        times.push(performance.now() - started);
        errors.push(errorOf(r));
      }
      // Only per-request values differ between two renderings of the same screen.
      let html = page.html.replaceAll(f.id, "ID").replaceAll(f.csrf, "CSRF");
      for (const m of page.html.matchAll(/nonce(?:=|\\?":\\?)"([A-Za-z0-9+/=_-]{8,})/g)) html = html.replaceAll(m[1]!, "NONCE");
      // Issue 17: the typed number (masked, known or not), the code's clock times and the resend wait.
      html = html.replaceAll(maskMsisdn(msisdn), "NUMBER").replace(/\d\d:\d\d(:\d\d)?/g, "TIME")
        .replace(/waitMs\\?":\d+/g, "waitMs:N");
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
