import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { pseudonymiseSubscriber } from "@/lib/audit/pseudonymise-subscriber";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { baseUrl, expectErrorRedirect, requestFor } from "../../support/authorize-support";
import { authorizeMobile, enrolledDevice, pendingOnHandset } from "../../support/mobile-support";

/** Issue 6: the PIN lockout also covers approvals on the handset (prompt=mobile at level 3). */

/** Level-3 answers carry the check code the consumption device shows (number matching, issue 15). */
let check = "";

async function answer(id: string, cookie: string, decision: "approve" | "reject", pin?: string) {
  const res = await fetch(`${baseUrl}/handset/requests/${id}`, {
    method: "POST", redirect: "manual",
    body: new URLSearchParams({ decision, check, ...(pin !== undefined ? { pin } : {}) }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie },
  });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!).searchParams.get("result");
}

describe("PIN lockout on the handset", () => {
  it("5 wrong PINs lock approvals (the right PIN too) and are audited; a right PIN after unlock clears the state", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "8642" });
    const cookie = await enrolledDevice(s);
    const q = requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}`, acr_values: "3" });
    const { pending, checkCode } = await authorizeMobile(q);
    check = checkCode;
    const request = await pendingOnHandset(s);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await answer(request.id, cookie, "approve", "1357"));
    expect(results).toEqual(["pin_invalid", "pin_invalid", "pin_invalid", "pin_invalid", "locked"]);
    expect(await answer(request.id, cookie, "approve", "8642")).toBe("locked");
    const row = await db.subscriber.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.lockoutCount).toBe(1);
    expect(row.lockedUntil!.getTime()).toBeGreaterThan(Date.now() + 290_000);
    const ref = pseudonymiseSubscriber(s.id);
    expect(await db.auditEvent.count({ where: { type: "pin_lockout", subscriberRef: ref } })).toBe(1);
    expect(await db.auditEvent.count({ where: { type: "sign_in", outcome: "failure", subscriberRef: ref } })).toBe(4);

    // Lockout over (as after `admin subscriber unlock` or the wait): the right PIN approves and clears the escalation.
    await db.subscriber.update({ where: { id: s.id }, data: { lockedUntil: new Date(Date.now() - 1000), failedPinAttempts: 2 } });
    expect(await answer(request.id, cookie, "approve", "8642")).toBe("approved");
    expect(await db.subscriber.findUniqueOrThrow({ where: { id: s.id } })).toMatchObject({ failedPinAttempts: 0, lockoutCount: 0 });
    expect(await db.auditEvent.count({ where: { type: "sign_in", outcome: "success", subscriberRef: ref } })).toBe(1);
    const res = await pending;
    expect([302, 303]).toContain(res.status);
  });

  it("a lockout earned on the sign-in screen also holds on the handset", async () => {
    const client = await createTestClient();
    const s = await createTestSubscriber({ pin: "8642" });
    await db.subscriber.update({ where: { id: s.id }, data: { lockoutCount: 1, lockedUntil: new Date(Date.now() + 300_000) } });
    const cookie = await enrolledDevice(s);
    const q = requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}`, acr_values: "3" });
    const { pending, checkCode } = await authorizeMobile(q);
    check = checkCode;
    const request = await pendingOnHandset(s);
    expect(await answer(request.id, cookie, "approve", "8642")).toBe("locked");
    expect(await answer(request.id, cookie, "reject")).toBe("rejected");
    expectErrorRedirect(await pending, client, q.state, "access_denied");
  });
});
