import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import {
  baseUrl, createTestClient, createTestSubscriber, grant, signedInBrowser,
} from "../../support/authorize-support";
import { consoleSignIn, createTestStaff } from "../../support/console-support";

/** The console's subscriber pages and care actions (issue 22), over real HTTP. */

const page = (id: string) => `/console/subscribers/${id}`;
const where = (res: Response) => new URL(res.headers.get("location")!, baseUrl);

async function staffEvents(staffId: string, type: string) {
  return db.auditEvent.findMany({ where: { staffId, type }, orderBy: { at: "asc" } });
}

describe("console subscribers", () => {
  it("refuses a viewer the pages (403) and every action (403, the refusal audited with its staffId)", async () => {
    const s = await createTestSubscriber();
    const viewer = await createTestStaff("viewer");
    const session = await consoleSignIn(baseUrl, viewer);
    expect((await session.get("/console/subscribers")).status).toBe(403);
    expect((await session.get(page(s.id))).status).toBe(403);
    for (const verb of ["find", "unlock", "suspend", "resume", "revoke"]) {
      const res = await session.post(`/console/subscribers/${verb}`, { id: s.id, confirm: "yes" }, "/console");
      expect(res.status).toBe(403);
    }
    const { id: viewerId } = (await db.staff.findUnique({ where: { username: viewer.username } }))!;
    const denied = await db.auditEvent.findMany({ where: { staffId: viewerId, outcome: "denied" } });
    expect(denied.map((e) => e.type).sort()).toEqual(["console_subscribers_find",
      "console_subscribers_resume", "console_subscribers_revoke", "console_subscribers_suspend",
      "console_subscribers_unlock"]);
    expect((await db.subscriber.findUnique({ where: { id: s.id } }))!.status).toBe("active");
    // No page of the viewer's shows the subscriber's pseudonym next to their number (the audit log shows pseudonyms).
    expect(await (await session.get("/console/audit")).text()).not.toContain(s.msisdn);
  });

  it("finds a subscriber by number in any usual form (a POST: no number in a URL), says so when malformed or unknown",
    async () => {
      const s = await createTestSubscriber();
      const care = await createTestStaff("care");
      const session = await consoleSignIn(baseUrl, care);
      const spaced = `+${s.msisdn.slice(0, 2)} ${s.msisdn.slice(2, 6)} ${s.msisdn.slice(6)}`;
      const found = await session.post("/console/subscribers/find", { number: spaced }, "/console/subscribers");
      expect(found.status).toBe(303);
      expect(where(found).pathname).toBe(page(s.id));
      const bad = await session.post("/console/subscribers/find", { number: "12ab" }, "/console/subscribers");
      expect(where(bad).searchParams.get("e")).toBe("bad");
      expect(await (await session.get(where(bad).pathname + where(bad).search)).text())
        .toContain("That is not a mobile number");
      const none = await session.post("/console/subscribers/find", { number: "+999999999999" }, "/console/subscribers");
      expect(await (await session.get(where(none).pathname + where(none).search)).text())
        .toContain("No subscriber has this number");
      // Every search is audited with the member's id: found (the pseudonym), malformed, unknown; never the number.
      const { id: staffId } = (await db.staff.findUnique({ where: { username: care.username } }))!;
      const finds = await staffEvents(staffId, "console_subscribers_find");
      expect(finds.map((e) => [e.outcome, e.subscriberRef, e.detail ? JSON.parse(e.detail).reason : null])).toEqual([
        ["success", pseudonymiseSubscriber(s.id), null], ["failure", null, "malformed"], ["failure", null, "unknown"]]);
      for (const e of finds) expect(`${e.detail} ${e.subscriberRef}`).not.toContain(s.msisdn.slice(2));
    });

  it("lists by status with paging by number", async () => {
    const a = await createTestSubscriber({ status: "suspended" });
    const b = await createTestSubscriber();
    await db.subscriber.update({ where: { id: b.id }, data: { lockedUntil: new Date(Date.now() + 600_000) } });
    const care = await createTestStaff("care");
    const session = await consoleSignIn(baseUrl, care);
    const suspended = await (await session.get("/console/subscribers?status=suspended")).text();
    expect(suspended).toContain(`+${a.msisdn}`);
    expect(suspended).not.toContain(`+${b.msisdn}`);
    const locked = await (await session.get("/console/subscribers?status=locked")).text();
    expect(locked).toContain(`+${b.msisdn}`);
    expect(locked).not.toContain(`+${a.msisdn}`);
    // The next page starts after the cursor (a subscriber id, not a number).
    const after = await (await session.get(`/console/subscribers?status=suspended&after=${a.id}`)).text();
    expect(after).not.toContain(`+${a.msisdn}`);
    // Every page listed is audited with the member's id: the filter, how many rows, whether a later page.
    const { id: staffId } = (await db.staff.findUnique({ where: { username: care.username } }))!;
    const lists = await staffEvents(staffId, "console_subscribers_list");
    expect(lists.map((e) => [e.outcome, JSON.parse(e.detail!).status, JSON.parse(e.detail!).later])).toEqual([
      ["success", "suspended", false], ["success", "locked", false], ["success", "suspended", true]]);
    expect(JSON.parse(lists[0]!.detail!).rows).toBeGreaterThanOrEqual(1);
    for (const e of lists) expect(e.detail).not.toContain(a.id);
  });

  it("shows one subscriber (lockout, attributes, handsets, consents, sign-ins, events) and audits the opening", async () => {
    const s = await createTestSubscriber();
    const client = await createTestClient();
    await grant(s, client, "openid profile");
    await db.subscriber.update({ where: { id: s.id },
      data: { failedPinAttempts: 5, lockoutCount: 1, lockedUntil: new Date(Date.now() + 600_000) } });
    await db.device.create({ data: { id: randomToken(12), subscriberId: s.id, name: "Blue phone", secretHash: sha256(randomToken(32)) } });
    await recordAuditEvent({ type: "sign_in", outcome: "success", subscriberId: s.id, clientId: client.id,
      detail: { acr: "2", method: "code" } });
    const care = await createTestStaff("care");
    const session = await consoleSignIn(baseUrl, care);
    const res = await session.get(page(s.id));
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of [`+${s.msisdn}`, "Alice", "given_name", "Blue phone", client.id, "openid profile", "Recent sign-ins",
      pseudonymiseSubscriber(s.id), "Locked until"]) expect(html).toContain(text);
    const { id: staffId } = (await db.staff.findUnique({ where: { username: care.username } }))!;
    const views = await staffEvents(staffId, "console_subscribers_view");
    expect(views).toHaveLength(1);
    expect(views[0]!.subscriberRef).toBe(pseudonymiseSubscriber(s.id));
    expect((await session.get(page("no-such-subscriber"))).status).toBe(404);
  });

  it("care unlocks, suspends (only when confirmed: sessions end, tokens revoked), resumes and removes a handset", async () => {
    const s = await createTestSubscriber();
    await db.subscriber.update({ where: { id: s.id },
      data: { failedPinAttempts: 5, lockoutCount: 2, lockedUntil: new Date(Date.now() + 600_000) } });
    const { session: subscriberSession } = await signedInBrowser(s);
    const deviceId = randomToken(12);
    await db.device.create({ data: { id: deviceId, subscriberId: s.id, name: "Old phone", secretHash: sha256(randomToken(32)) } });
    const care = await createTestStaff("care");
    const session = await consoleSignIn(baseUrl, care);
    const { id: staffId } = (await db.staff.findUnique({ where: { username: care.username } }))!;

    const unlock = await session.post("/console/subscribers/unlock", { id: s.id }, page(s.id));
    expect(unlock.status).toBe(303);
    expect(where(unlock).searchParams.get("done")).toBe("unlocked");
    const unlocked = (await db.subscriber.findUnique({ where: { id: s.id } }))!;
    expect([unlocked.failedPinAttempts, unlocked.lockoutCount, unlocked.lockedUntil]).toEqual([0, 0, null]);

    const unconfirmed = await session.post("/console/subscribers/suspend", { id: s.id }, page(s.id));
    expect(where(unconfirmed).searchParams.get("e")).toBe("confirm");
    expect((await db.subscriber.findUnique({ where: { id: s.id } }))!.status).toBe("active");

    const suspend = await session.post("/console/subscribers/suspend", { id: s.id, confirm: "yes" }, page(s.id));
    expect(where(suspend).searchParams.get("done")).toBe("suspended");
    expect((await db.subscriber.findUnique({ where: { id: s.id } }))!.status).toBe("suspended");
    expect((await db.session.findUnique({ where: { id: subscriberSession.id } }))!.endedAt).not.toBeNull();
    expect(await (await session.get(page(s.id))).text()).toContain("Resume");

    const resume = await session.post("/console/subscribers/resume", { id: s.id }, page(s.id));
    expect(where(resume).searchParams.get("done")).toBe("resumed");
    expect((await db.subscriber.findUnique({ where: { id: s.id } }))!.status).toBe("active");

    // Another subscriber's handset cannot be removed through this subscriber.
    const other = await createTestSubscriber();
    const foreign = randomToken(12);
    await db.device.create({ data: { id: foreign, subscriberId: other.id, name: "X", secretHash: sha256(randomToken(32)) } });
    const refused = await session.post("/console/subscribers/revoke", { id: s.id, device: foreign }, page(s.id));
    expect(where(refused).searchParams.get("e")).toBe("handset");
    expect((await db.device.findUnique({ where: { id: foreign } }))!.revokedAt).toBeNull();

    const remove = await session.post("/console/subscribers/revoke", { id: s.id, device: deviceId }, page(s.id));
    expect(where(remove).searchParams.get("done")).toBe("handset_removed");
    expect((await db.device.findUnique({ where: { id: deviceId } }))!.revokedAt).not.toBeNull();

    for (const type of ["unlock", "suspend", "resume", "revoke"]) {
      const events = await staffEvents(staffId, `console_subscribers_${type}`);
      expect(events, type).toHaveLength(1);
      expect(events[0]!.subscriberRef).toBe(pseudonymiseSubscriber(s.id));
      expect(events[0]!.outcome).toBe("success");
    }
    // The subscriber page lists these events (care sees the subscriber's own events there).
    const html = await (await session.get(page(s.id))).text();
    expect(html).toContain("console_subscribers_suspend");
    expect(html).toContain(care.username);
  });

  it("sends an action for an unknown subscriber back to the list, and refuses a post without the CSRF token", async () => {
    const care = await createTestStaff("care");
    const session = await consoleSignIn(baseUrl, care);
    const res = await session.post("/console/subscribers/unlock", { id: "nobody" }, "/console/subscribers");
    expect(where(res).pathname).toBe("/console/subscribers");
    expect(where(res).searchParams.get("e")).toBe("unknown");
    const s = await createTestSubscriber();
    const noToken = await fetch(`${baseUrl}/console/subscribers/unlock`, { method: "POST", redirect: "manual",
      headers: { cookie: session.cookie(), "content-type": "application/x-www-form-urlencoded", origin: new URL(baseUrl).origin },
      body: new URLSearchParams({ id: s.id }) });
    expect(noToken.status).toBe(403);
  });
});
