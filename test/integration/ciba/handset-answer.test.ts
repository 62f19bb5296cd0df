import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestSubscriber } from "../../support/fixtures";
import { baseUrl } from "../../support/authorize-support";
import { answerOnHandset, createCibaClient } from "../../support/ciba-support";
import { enrolledDevice } from "../../support/mobile-support";
import { pendingBackchannelRequest } from "../../support/ciba-rows";

/**
 * The subscriber's side of CIBA on the enrolled handset (lib/out-of-band/answer-device-request.ts): the
 * BackchannelRequest and its DeviceRequest are written directly (as /bc-authorize leaves them), then answered over
 * HTTP as the handset page submits. No check code; level 3 asks the PIN; the answer settles the backchannel request
 * (settleBackchannelRequest) in the same transaction.
 */

/** What the handset's answer form tells (approved_backchannel: "Approved. The application has been told."). */
function resultOf(res: Response) {
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!).searchParams.get("result");
}

async function setup(opts: { acr?: "2" | "3"; mode?: "poll" | "ping" | "push"; bindingMessage?: string } = {}) {
  const client = await createCibaClient({ mode: opts.mode, notificationEndpoint: opts.mode && opts.mode !== "poll"
    ? "https://rp.example.test/ciba" : undefined });
  const subscriber = await createTestSubscriber();
  const cookie = await enrolledDevice(subscriber);
  const request = await pendingBackchannelRequest({ client, subscriber, acr: opts.acr, mode: opts.mode,
    bindingMessage: opts.bindingMessage ?? "ORDER-4711", scope: "openid profile" });
  return { client, subscriber, cookie, request, deviceRequestId: request.deviceRequest!.id };
}

const backchannel = (id: string) => db.backchannelRequest.findUniqueOrThrow({ where: { id } });
const device = (id: string) => db.deviceRequest.findUniqueOrThrow({ where: { id } });

describe("a backchannel request on the handset", () => {
  it("is listed with its own card: no number to type, the binding message to check, the app's own service", async () => {
    const { client, cookie } = await setup({ acr: "3", bindingMessage: "TIGER-7" });
    const html = await (await fetch(`${baseUrl}/handset`, { headers: { cookie } })).text();
    expect(html).toContain(client.name);
    expect(html).toContain("ciba-request");
    expect(html).toContain("TIGER-7");
    expect(html).toContain("Check this matches what you were told");
    expect(html).toContain("not from a browser of yours");
    expect(html).not.toContain('name="check"');
    expect(html).toContain('name="pin"');
    const fr = await (await fetch(`${baseUrl}/handset`, { headers: { cookie, "accept-language": "fr" } })).text();
    expect(fr).toContain("Vérifiez que ceci correspond");
  });

  it("approved at level 2 without a check code: approved with acr 2 and amr mca, audited", async () => {
    const { client, subscriber, cookie, request, deviceRequestId } = await setup();
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "approve" }))).toBe("approved_backchannel");
    const row = await backchannel(request.id);
    expect(row).toMatchObject({ status: "approved", acr: "2", amr: "mca" });
    expect(row.authTime).toBeInstanceOf(Date);
    expect((await device(deviceRequestId)).status).toBe("approved");
    const audits = await db.auditEvent.findMany({ where: { clientId: client.id }, orderBy: { id: "asc" } });
    expect(audits.map((a) => `${a.type}:${a.outcome}`)).toEqual(expect.arrayContaining(
      ["approval_answered:success", "sign_in:success"]));
    // No consent is remembered: the approval covers this one request, as prompt=mobile.
    expect(await db.grant.count({ where: { subscriberId: subscriber.id, clientId: client.id } })).toBe(0);
    // Answered once: a second answer reads "gone".
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "reject" }))).toBe("gone");
    expect((await backchannel(request.id)).status).toBe("approved");
  });

  it("at level 3 asks the PIN: missing, wrong (pending still), then right: acr 3, amr mca pin", async () => {
    const { cookie, request, deviceRequestId } = await setup({ acr: "3" });
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "approve" }))).toBe("pin_missing");
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "approve", pin: "0000" }))).toBe("pin_invalid");
    expect((await backchannel(request.id)).status).toBe("pending");
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "approve", pin: "2468" })))
      .toBe("approved_backchannel");
    expect(await backchannel(request.id)).toMatchObject({ status: "approved", acr: "3", amr: "mca pin" });
  });

  it("at level 3 with the PIN locked: locked, and the request stays pending", async () => {
    const { subscriber, cookie, request, deviceRequestId } = await setup({ acr: "3" });
    await db.subscriber.update({ where: { id: subscriber.id }, data: { lockedUntil: new Date(Date.now() + 600_000) } });
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "approve", pin: "2468" }))).toBe("locked");
    expect((await backchannel(request.id)).status).toBe("pending");
    expect((await device(deviceRequestId)).status).toBe("pending");
  });

  it("rejected: the backchannel request is denied (no acr or amr)", async () => {
    const { cookie, request, deviceRequestId } = await setup({ acr: "3" });
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "reject" }))).toBe("rejected");
    expect(await backchannel(request.id)).toMatchObject({ status: "denied", amr: null, authTime: null });
    expect((await device(deviceRequestId)).status).toBe("rejected");
  });

  it("for a ping client, the approval queues the notification in the same transaction", async () => {
    const { cookie, request, deviceRequestId } = await setup({ mode: "ping" });
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "approve" }))).toBe("approved_backchannel");
    expect(await db.backchannelNotification.count({ where: { requestId: request.id, kind: "ping" } })).toBe(1);
  });

  it("an expired request cannot be answered", async () => {
    const { cookie, request, deviceRequestId } = await setup();
    const past = new Date(Date.now() - 1000);
    await db.backchannelRequest.update({ where: { id: request.id }, data: { expiresAt: past } });
    await db.deviceRequest.update({ where: { id: deviceRequestId }, data: { expiresAt: past, attendedUntil: past } });
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "approve" }))).toBe("gone");
    // The answer leaves it as it was; the server's expiry sweep (every 2 s) may already have ended it.
    const after = await backchannel(request.id);
    expect(["pending", "expired"]).toContain(after.status);
    expect(after.amr).toBeNull();
    expect(after.answeredAt === null || after.status === "expired").toBe(true);
  });

  it("a request ended elsewhere (expired backchannel request) is withdrawn from the handset", async () => {
    const { cookie, request, deviceRequestId } = await setup();
    await db.backchannelRequest.update({ where: { id: request.id }, data: { status: "expired" } });
    expect(resultOf(await answerOnHandset(deviceRequestId, cookie, { decision: "approve" }))).toBe("gone");
    expect((await device(deviceRequestId)).status).toBe("expired");
  });

  it("two parallel approvals: one wins, the other reads gone; one settlement, one notification", async () => {
    const { cookie, request, deviceRequestId } = await setup({ mode: "push" });
    const results = await Promise.all([1, 2, 3].map(() => answerOnHandset(deviceRequestId, cookie, { decision: "approve" })
      .then(resultOf)));
    expect(results.filter((r) => r === "approved_backchannel")).toHaveLength(1);
    expect(results.filter((r) => r === "gone")).toHaveLength(2);
    expect((await backchannel(request.id)).status).toBe("approved");
    expect(await db.backchannelNotification.count({ where: { requestId: request.id } })).toBe(1);
  });

  it("another subscriber's handset cannot answer it", async () => {
    const { request, deviceRequestId } = await setup();
    const other = await enrolledDevice(await createTestSubscriber());
    expect(resultOf(await answerOnHandset(deviceRequestId, other, { decision: "approve" }))).toBe("gone");
    expect((await backchannel(request.id)).status).toBe("pending");
  });
});
