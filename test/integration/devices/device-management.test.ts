import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { createTestClient, createTestSubscriber } from "../../support/fixtures";
import { baseUrl, expectErrorRedirect, requestFor, type Subscriber } from "../../support/authorize-support";
import { authorizeMobile } from "../../support/mobile-support";

/** Handset management (issue 5): the subscriber removes a handset (the operator's commands: device-maintenance.test.ts). */

async function enrolledDevice(subscriber: Subscriber) {
  const secret = randomToken(32);
  const id = randomToken(12);
  await db.device.create({ data: { id, subscriberId: subscriber.id, name: "Test phone", secretHash: sha256(secret) } });
  return { id, cookie: `op_device=${secret}` };
}

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${baseUrl}${path}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, ...headers },
  });
}

describe("removing a handset on /handset", () => {
  it("revokes it: no page, no events, no answers, no prompt=mobile; it must enrol again", async () => {
    const s = await createTestSubscriber();
    const { id, cookie } = await enrolledDevice(s);
    const page = await (await fetch(`${baseUrl}/handset`, { headers: { cookie } })).text();
    expect(page).toContain("Remove this phone");
    expect(page).toContain('action="/handset/remove"');

    // cross-site, or without the confirmation field: refused, nothing changes
    expect((await post("/handset/remove", { confirm: "remove" }, { cookie, origin: "https://evil.example" }))
      .headers.get("location")).toContain("result=bad_request");
    expect((await post("/handset/remove", {}, { cookie })).headers.get("location")).toContain("result=bad_request");
    expect((await db.device.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();

    const removed = await post("/handset/remove", { confirm: "remove" }, { cookie });
    expect(removed.status).toBe(303);
    expect(removed.headers.get("location")).toBe(`${baseUrl}/handset?result=removed`);
    expect(removed.headers.get("set-cookie")).toMatch(/^op_device=; .*Max-Age=0/);
    expect((await db.device.findUniqueOrThrow({ where: { id } })).revokedAt).not.toBeNull();

    // the old credential (a copied cookie) gets nothing further
    const after = await (await fetch(`${baseUrl}/handset?result=removed`, { headers: { cookie } })).text();
    expect(after).toContain("This phone was removed.");
    expect(after).toContain("not registered");
    expect((await fetch(`${baseUrl}/handset/events`, { headers: { cookie } })).status).toBe(401);
    const answer = await post(`/handset/requests/${randomToken(16)}`, { decision: "approve" }, { cookie });
    expect(answer.headers.get("location")).toBe(`${baseUrl}/handset/enrol`);
    expect((await post("/handset/remove", { confirm: "remove" }, { cookie })).headers.get("location"))
      .toBe(`${baseUrl}/handset/enrol`);
    const client = await createTestClient();
    const q = requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}` });
    // prompt=mobile now reaches no handset: stored like any request, listed on none (issue 15: no enumeration)
    const { waitUrl } = await authorizeMobile(q);
    const row = await db.deviceRequest.findUniqueOrThrow({ where: { authorizationRequestId: waitUrl.split("/").pop()! } });
    expect(row.subscriberId).toBeNull();
  });

  it("removing the last handset answers a waiting prompt=mobile request at once; another handset keeps it", async () => {
    const s = await createTestSubscriber();
    const first = await enrolledDevice(s);
    const second = await enrolledDevice(s);
    const client = await createTestClient();
    const q = requestFor(client, { prompt: "mobile", login_hint: `MSISDN:${s.msisdn}` });
    const { pending } = await authorizeMobile(q);
    let request = null;
    for (let i = 0; i < 100 && !request; i++) {
      request = await db.deviceRequest.findFirst({ where: { subscriberId: s.id, status: "pending" } });
      if (!request) await new Promise((r) => setTimeout(r, 50));
    }
    expect(request).not.toBeNull();
    await post("/handset/remove", { confirm: "remove" }, { cookie: first.cookie });
    expect((await db.deviceRequest.findUniqueOrThrow({ where: { id: request!.id } })).status).toBe("pending");
    const started = Date.now();
    await post("/handset/remove", { confirm: "remove" }, { cookie: second.cookie });
    const description = expectErrorRedirect(await pending, client, q.state, "access_denied");
    expect(description).toContain("expired");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("the handset pages' old addresses (/device, before issue 16)", () => {
  it("answer 308 to the same place under /handset, query kept, and a POST followed there stays a POST", async () => {
    const page = await fetch(`${baseUrl}/device`, { redirect: "manual" });
    expect(page.status).toBe(308);
    // Next.js sends a same-origin Location relative (RFC 9110 §10.2.2 allows it): compare where it leads.
    const target = (res: Response) => new URL(res.headers.get("location")!, baseUrl).href;
    expect(target(page)).toBe(`${baseUrl}/handset`);
    const enrol = await fetch(`${baseUrl}/device/enrol?step=code`, { redirect: "manual" });
    expect(enrol.status).toBe(308);
    expect(target(enrol)).toBe(`${baseUrl}/handset/enrol?step=code`);

    const s = await createTestSubscriber();
    const { id, cookie } = await enrolledDevice(s);
    const old = await post("/device/remove", { confirm: "remove" }, { cookie });
    expect(old.status).toBe(308);
    expect(target(old)).toBe(`${baseUrl}/handset/remove`);
    expect((await db.device.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
    // fetch follows a 308 with the same method and body, as a browser does
    const followed = await fetch(`${baseUrl}/device/remove`, {
      method: "POST", redirect: "follow", body: new URLSearchParams({ confirm: "remove" }),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl, cookie },
    });
    expect(followed.url).toContain("/handset?result=removed");
    expect((await db.device.findUniqueOrThrow({ where: { id } })).revokedAt).not.toBeNull();
  });
});
