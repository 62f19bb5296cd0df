import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { hitRateLimit, peekRateLimit, rateLimitWindow } from "@/lib/security/hit-rate-limit";
import { otpResendsPerRequest } from "@/lib/security/limits";
import { baseUrl, createTestSubscriber } from "../../support/authorize-support";
import { consoleSignIn, createTestStaff } from "../../support/console-support";

/** The console's abuse limits page (issue 22): everyone reads; only an administrator lifts a throttle. */

async function throttleNumber(msisdn: string) {
  const limit = otpResendsPerRequest();
  for (let i = 0; i < limit.limit; i++) await hitRateLimit({ limit, subject: msisdn });
  // The key's subject part (a keyed hash): the rows of every window, the newest first.
  const subject = rateLimitWindow(limit, msisdn, Date.now()).key.split(":")[1]!;
  const rows = await db.rateLimit.findMany({ where: { key: { startsWith: `${limit.name}:${subject}:` } },
    orderBy: { expiresAt: "desc" } });
  return rows[0]!.key;
}

describe("console abuse limits", () => {
  it("shows who is throttled until when, without the number; locked subscribers and staff", async () => {
    const s = await createTestSubscriber();
    const key = await throttleNumber(s.msisdn);
    await db.subscriber.update({ where: { id: s.id }, data: { lockedUntil: new Date(Date.now() + 600_000) } });
    const lockedStaff = await createTestStaff("viewer");
    await db.staff.update({ where: { username: lockedStaff.username }, data: { lockedUntil: new Date(Date.now() + 600_000) } });
    const viewer = await createTestStaff("viewer");
    const session = await consoleSignIn(baseUrl, viewer);
    const res = await session.get("/console/limits");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("New codes requested in one sign-in");
    expect(html).toContain(key.split(":")[1]!.slice(0, 12));
    expect(html).not.toContain(s.msisdn);
    // The key's hash is keyed (SUBJECT_SECRET): not the number's plain SHA-256, which a viewer could brute-force.
    expect(key.split(":")[1]).not.toBe(sha256(s.msisdn).slice(0, 32));
    expect(html).not.toContain(sha256(s.msisdn).slice(0, 12));
    expect(html).toMatch(/\d+ subscriber.{1,12} PINs? (is|are) locked now/);
    expect(html).toContain(lockedStaff.username);
    // A viewer gets no lift button, and no link to the subscribers (care's pages).
    expect(html).not.toContain("/console/limits/lift");
    expect(html).not.toContain("/console/subscribers?status=locked");
  });

  it("refuses lifting to care (403, audited denied) and lets an admin lift a throttle (audited with staffId)", async () => {
    const s = await createTestSubscriber();
    const key = await throttleNumber(s.msisdn);
    const care = await createTestStaff("care");
    const careSession = await consoleSignIn(baseUrl, care);
    expect(await (await careSession.get("/console/limits")).text()).not.toContain("/console/limits/lift");
    const refused = await careSession.post("/console/limits/lift", { key }, "/console/limits");
    expect(refused.status).toBe(403);
    expect(await db.rateLimit.findUnique({ where: { key } })).not.toBeNull();
    const { id: careId } = (await db.staff.findUnique({ where: { username: care.username } }))!;
    expect(await db.auditEvent.count({ where: { staffId: careId, type: "console_limits_lift", outcome: "denied" } })).toBe(1);

    // The throttle holds: the number is refused until lifted.
    const limit = otpResendsPerRequest();
    expect((await peekRateLimit({ limit, subject: s.msisdn })).allowed).toBe(false);
    const admin = await createTestStaff("admin");
    const session = await consoleSignIn(baseUrl, admin);
    expect(await (await session.get("/console/limits")).text()).toContain(`value="${key}"`);
    const lift = await session.post("/console/limits/lift", { key }, "/console/limits");
    expect(lift.status).toBe(303);
    expect(new URL(lift.headers.get("location")!).searchParams.get("done")).toBe("lifted");
    expect(await db.rateLimit.findUnique({ where: { key } })).toBeNull();
    const { id: adminId } = (await db.staff.findUnique({ where: { username: admin.username } }))!;
    const events = await db.auditEvent.findMany({ where: { staffId: adminId, type: "console_limits_lift" } });
    expect(events.map((e) => [e.outcome, JSON.parse(e.detail!).limit])).toEqual([["success", "otp-resend"]]);
    // Lifting again: already gone; a made-up key changes nothing.
    const again = await session.post("/console/limits/lift", { key }, "/console/limits");
    expect(new URL(again.headers.get("location")!).searchParams.get("e")).toBe("gone");
    const bogus = await session.post("/console/limits/lift", { key: "anything" }, "/console/limits");
    expect(new URL(bogus.headers.get("location")!).searchParams.get("e")).toBe("gone");
    // Lifted: the number is counted again from zero, in the row the server read (the same keyed hash).
    expect((await hitRateLimit({ limit, subject: s.msisdn })).count).toBe(1);
  });
});
