import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { useAbuseServer, errorOf, latestCode, subscriberRow } from "@/test/support/abuse-server";
import { createTestSubscriber } from "@/test/support/fixtures";
import { getInteraction } from "@/e2e/fixtures/interaction-http";
/**
 * Issue 17: at level 3 a wrong PIN with the right code does not burn the code. Code tries and PIN
 * tries are counted apart: a code try is spent only by a wrong code (whatever the PIN), a wrong PIN
 * after the right code counts against the subscriber's PIN lockout only. Over HTTP, with the
 * production limits (3 code tries, 5 PIN failures).
 */
const h = useAbuseServer("pin-code-tries");
vi.setConfig({ testTimeout: 90_000 });

const otpAttempts = async (id: string) =>
  (await db.authorizationRequest.findUniqueOrThrow({ where: { id } })).otpAttempts;

describe("code tries and PIN tries", () => {
  it("the right code with a wrong PIN four times does not burn the code; the right PIN then signs in", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const ip = h.newIp();
    const { f } = await h.level3(s.msisdn, ip);
    const code = (await latestCode(s.msisdn))!;
    for (let i = 0; i < 4; i++) {
      const r = await h.post(f, "code", { code, pin: "1357" }, ip);
      expect(errorOf(r)).toBe("pin_invalid");
    }
    expect(await otpAttempts(f.id)).toBe(0);
    expect((await subscriberRow(s.id)).failedPinAttempts).toBe(4);
    // The screen says the code is still valid and how many wrong PINs lock, linked to the fields.
    const page = await getInteraction(h.baseUrl, f.id, f.cookie, "?e=pin_invalid");
    expect(page.html).toContain("Your code is still valid");
    expect(page.html).toContain("After 5 wrong PINs in a row");
    // (issue 17: the PIN field is the one in error, so the message describes it first)
    expect(page.html).toMatch(/id="pin"[^>]*aria-describedby="form-error pin-help code-kept"|aria-describedby="form-error pin-help code-kept"[^>]*id="pin"/);
    expect(page.html).toContain('name="code"');
    const ok = await h.post(f, "code", { code, pin: s.pin }, ip);
    expect(errorOf(ok)).toBeNull();
    expect(ok.headers.get("location")).toContain("/authorize/resume/");
    expect(await db.message.count({ where: { msisdn: s.msisdn } })).toBe(1);
    expect((await subscriberRow(s.id)).failedPinAttempts).toBe(0);
  });

  it("the lockout comes at the 5th wrong PIN on one code, with one text message", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const ip = h.newIp();
    const { f } = await h.level3(s.msisdn, ip);
    const code = (await latestCode(s.msisdn))!;
    const errors: (string | null)[] = [];
    for (let i = 0; i < 5; i++) errors.push(errorOf(await h.post(f, "code", { code, pin: "1357" }, ip)));
    expect(errors).toEqual(["pin_invalid", "pin_invalid", "pin_invalid", "pin_invalid", "pin_locked"]);
    expect(await db.message.count({ where: { msisdn: s.msisdn } })).toBe(1);
    const row = await subscriberRow(s.id);
    expect(row.lockoutCount).toBe(1);
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now());
    // Locked: the right code and PIN do not get through.
    expect(errorOf(await h.post(f, "code", { code, pin: s.pin }, ip))).toBe("pin_locked");
  });

  it("a wrong code spends a code try whatever the PIN, reveals nothing about it and counts no PIN failure", async () => {
    const s = await createTestSubscriber({ pin: "8642" });
    const ip = h.newIp();
    const { f } = await h.level3(s.msisdn, ip);
    const code = (await latestCode(s.msisdn))!;
    const wrong = code === "000000" ? "000001" : "000000";
    const errors: (string | null)[] = [];
    errors.push(errorOf(await h.post(f, "code", { code: wrong, pin: s.pin }, ip)));
    errors.push(errorOf(await h.post(f, "code", { code: wrong, pin: "1357" }, ip)));
    expect(errors).toEqual(["code_invalid", "code_invalid"]);
    expect(await otpAttempts(f.id)).toBe(2);
    expect((await subscriberRow(s.id)).failedPinAttempts).toBe(0);
    // Wrong PINs in between give their code try back, so they do not hasten the burn...
    expect(errorOf(await h.post(f, "code", { code, pin: "1357" }, ip))).toBe("pin_invalid");
    expect(await otpAttempts(f.id)).toBe(2);
    // ...and the third wrong code burns it: the right code and PIN are then refused.
    expect(errorOf(await h.post(f, "code", { code: wrong, pin: s.pin }, ip))).toBe("code_burnt");
    expect(errorOf(await h.post(f, "code", { code, pin: s.pin }, ip))).toBe("code_burnt");
    expect((await subscriberRow(s.id)).failedPinAttempts).toBe(1);
  });
});
