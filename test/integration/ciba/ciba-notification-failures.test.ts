import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db";
import { sha256 } from "@/lib/crypto";
import { CIBA_NOTIFICATION_POLICY } from "@/lib/ciba/deliver-backchannel-notifications";
import { createCibaClient, pollToken } from "../../support/ciba-support";
import { createBackchannelRequest, notificationReceiver, settle, settledNotification } from "../../support/ciba-delivery-support";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * A CIBA notification endpoint that fails (lib/ciba/deliver-backchannel-notifications.ts, lib/outbox): retried with
 * backoff (CIBA_NOTIFICATION_POLICY: 2 s, then ×3) after a 5xx or a timeout, given up at once after a 4xx and for a
 * dynamically registered client's endpoint on a refused address (the shared server runs with the production rule,
 * ALLOW_LOOPBACK_CLIENT_URLS unset). A push attempt mints fresh tokens and revokes the previous attempt's; giving up
 * revokes them. A hanging endpoint holds neither the worker nor any request.
 */
const baseUrl = inject("baseUrl");
let rp: Awaited<ReturnType<typeof notificationReceiver>>;
beforeAll(async () => { rp = await notificationReceiver(); });
afterAll(() => rp.close());

async function setup(mode: "ping" | "push", answers: Array<number | "hang"> = []) {
  const client = await createCibaClient({ mode, notificationEndpoint: "pending" });
  const path = `/${mode}/${client.id}`;
  rp.statuses.set(path, [...answers]);
  await db.client.update({ where: { id: client.id }, data: { backchannelClientNotificationEndpoint: `${rp.base}${path}` } });
  const subscriber = await createTestSubscriber();
  const request = await createBackchannelRequest({ clientId: client.id, subscriberId: subscriber.id, mode });
  return { client, subscriber, path, ...request };
}

const premiumInfo = (token: string) =>
  fetch(`${baseUrl}/premiuminfo`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

describe("CIBA notifications that fail", () => {
  it("a 500 then a 200: retried after the backoff, delivered", async () => {
    const { path, authReqId, id } = await setup("ping", [500]);
    await settle(id);
    const row = await settledNotification(id);
    expect(row).toMatchObject({ attempts: 2, lastStatus: 200, lastError: null, failedAt: null });
    const [first, second] = rp.at(path);
    expect(first!.body).toEqual({ auth_req_id: authReqId });
    expect(second!.body).toEqual({ auth_req_id: authReqId });
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(CIBA_NOTIFICATION_POLICY.firstRetryMs - 200);
  }, 30_000);

  it("push, a 500 then a 200: the second attempt mints fresh tokens and revokes the first attempt's", async () => {
    const { path, id } = await setup("push", [500]);
    await settle(id);
    const row = await settledNotification(id);
    expect(row).toMatchObject({ attempts: 2, lastStatus: 200 });
    const [first, second] = rp.at(path).map((r) => r.body as Record<string, string>);
    expect(first!.access_token).not.toBe(second!.access_token);
    expect(first!.auth_req_id).toBe(second!.auth_req_id);
    expect(await premiumInfo(first!.access_token!)).toBe(401);
    expect(await premiumInfo(second!.access_token!)).toBe(200);
    const firstRefresh = await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256(first!.refresh_token!) } });
    expect(firstRefresh.revokedAt).not.toBeNull();
    const secondAccess = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: sha256(second!.access_token!) } });
    expect(secondAccess).toMatchObject({ revokedAt: null, familyId: row.tokenFamilyId });
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).status).toBe("redeemed");
  }, 30_000);

  it("an endpoint that hangs: timed out, retried; meanwhile other notifications and requests are not held", async () => {
    const hanging = await setup("ping", ["hang"]);
    await settle(hanging.id);
    await expect.poll(() => rp.at(hanging.path).length, { timeout: 5_000 }).toBe(1);
    // while the first POST hangs: another client's ping goes out, and the token endpoint answers at once
    const other = await setup("ping");
    const settledAt = Date.now();
    await settle(other.id);
    const otherRow = await settledNotification(other.id, 10_000);
    expect(otherRow.deliveredAt!.getTime() - settledAt).toBeLessThan(4_500); // within a pass, not after the 5 s hang
    const started = Date.now();
    expect((await pollToken(hanging.client, hanging.authReqId)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
    const row = await settledNotification(hanging.id, 20_000);
    expect(row).toMatchObject({ attempts: 2, lastStatus: 200, failedAt: null });
    const [first, second] = rp.at(hanging.path);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(5_000 + CIBA_NOTIFICATION_POLICY.firstRetryMs - 500);
  }, 40_000);

  it("a 400: given up at once; a push given up revokes the tokens it minted", async () => {
    const ping = await setup("ping", [400]);
    const push = await setup("push", [400]);
    await settle(ping.id);
    await settle(push.id);
    for (const { id } of [ping, push]) {
      const row = await settledNotification(id);
      expect(row).toMatchObject({ attempts: 1, lastStatus: 400, lastError: "HTTP 400", deliveredAt: null });
      expect(row.failedAt).not.toBeNull();
    }
    const pushed = rp.at(push.path)[0]!.body as Record<string, string>;
    expect(await premiumInfo(pushed.access_token!)).toBe(401);
    expect(await db.accessToken.count({ where: { clientId: push.client.id, revokedAt: null } })).toBe(0);
    expect(await db.refreshToken.count({ where: { clientId: push.client.id, revokedAt: null } })).toBe(0);
    await new Promise((r) => setTimeout(r, CIBA_NOTIFICATION_POLICY.firstRetryMs + 1_000)); // no retry
    expect(rp.at(ping.path)).toHaveLength(1);
    expect(rp.at(push.path)).toHaveLength(1);
  }, 30_000);

  it("a dynamically registered client's endpoint on a refused address: nothing is POSTed, given up at once", async () => {
    const cases = [["ping", "https://10.0.0.1/cb"], ["push", "https://169.254.169.254/latest/meta-data"],
      ["ping", "loopback"]] as const;
    const made = [];
    for (const [mode, uri] of cases) {
      const s = await setup(mode);
      const endpoint = uri === "loopback" ? `${rp.base}/dyn/${s.client.id}` : uri;
      await db.client.update({ where: { id: s.client.id }, data: { registeredBy: "dynamic",
        backchannelClientNotificationEndpoint: endpoint } });
      made.push(s);
    }
    for (const s of made) await settle(s.id);
    const rows = await Promise.all(made.map((s) => settledNotification(s.id)));
    expect(rows[0]).toMatchObject({ attempts: 1, deliveredAt: null, lastStatus: null,
      lastError: expect.stringMatching(/^refused: the URL's host is a private, loopback or reserved address/) });
    expect(rows[1]).toMatchObject({ attempts: 1, deliveredAt: null,
      lastError: expect.stringMatching(/^refused: the URL's host is a private, loopback or reserved address/) });
    expect(rows[2]).toMatchObject({ attempts: 1, deliveredAt: null, lastError: expect.stringMatching(/^refused: the URL must use https/) });
    for (const row of rows) expect(row.failedAt).not.toBeNull();
    expect(rp.received.filter((r) => r.path.startsWith("/dyn/"))).toEqual([]);
    expect(await db.accessToken.count({ where: { clientId: made[1]!.client.id, revokedAt: null } })).toBe(0);
  }, 30_000);
});
