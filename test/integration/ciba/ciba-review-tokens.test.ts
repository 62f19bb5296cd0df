import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { db } from "@/lib/db";
import { AUTH_REQ_ID_CLAIM } from "@/lib/ciba/ciba";
import { getClient } from "@/lib/clients/get-client";
import { checkLinkCode } from "@/lib/ciba/answer-by-link";
import { recordBackchannelPoll } from "@/lib/ciba/backchannel-requests";
import { backchannelIdToken } from "@/lib/ciba/backchannel-tokens";
import { toParams } from "@/lib/http/params";
import { accessTokenHash, RT_HASH_CLAIM } from "@/lib/oauth/id-token";
import { cibaGrant } from "@/lib/oauth/token/ciba-grant";
import { PER_CLIENT_IN_FLIGHT, startDue, type Outbox, type OutboxRow, type Outcome } from "@/lib/outbox/outbox";
import { suspendSubscriber } from "@/lib/subscribers/suspend-subscriber";
import { createCibaClient } from "../../support/ciba-support";
import { pendingBackchannelRequest } from "../../support/ciba-rows";
import { createBackchannelRequest, notificationReceiver, settle, settledNotification } from "../../support/ciba-delivery-support";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * Review 20 fixes (tokens): no token for a suspended subscriber (M4), rt_hash in a pushed id_token (M5), one
 * hanging notification endpoint holds at most PER_CLIENT_IN_FLIGHT delivery slots (S5), a poll racing the approval is
 * never slow_down (S6). Most call lib/ directly against the shared test database; the push tests go through the
 * shared server's delivery worker.
 */
const staleRead = vi.hoisted(() => ({ next: null as unknown }));
vi.mock("@/lib/ciba/backchannel-requests", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/ciba/backchannel-requests")>();
  return { ...actual, findBackchannelRequest: (id: string) => {
    // S6: the first read of a test returns the row as it was before the answer landed (a poll racing it)
    const row = staleRead.next;
    staleRead.next = null;
    return row ? Promise.resolve(row as Awaited<ReturnType<typeof actual.findBackchannelRequest>>) : actual.findBackchannelRequest(id);
  } };
});

const baseUrl = inject("baseUrl");
const jwks = createRemoteJWKSet(new URL(`${baseUrl}/jwks`));
let rp: Awaited<ReturnType<typeof notificationReceiver>>;
beforeAll(async () => { rp = await notificationReceiver(); });
afterAll(() => rp.close());

const grant = async (clientId: string, authReqId: string) =>
  cibaGrant({ client: (await getClient({ clientId }))!, params: toParams([["auth_req_id", authReqId]]) });
const errorOf = (promise: Promise<unknown>) => promise.then(() => "tokens", (err: { error?: string }) => err.error);

async function pushClient() {
  const client = await createCibaClient({ mode: "push", notificationEndpoint: "pending" });
  const path = `/push/${client.id}`;
  await db.client.update({ where: { id: client.id }, data: { backchannelClientNotificationEndpoint: `${rp.base}${path}` } });
  return { client, path };
}

describe("M4: no tokens after the subscriber is suspended", () => {
  it("suspension denies a pending request: the text-message link no longer approves, the token endpoint answers access_denied", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    const req = await pendingBackchannelRequest({ client: c, subscriber: s, channel: "sms" });
    await suspendSubscriber({ msisdn: s.msisdn });
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id: req.id } })).status).toBe("denied");
    const checked = await checkLinkCode({ token: req.link!.token, code: req.link!.code });
    expect(checked).toMatchObject({ result: "denied" });
    expect(await errorOf(grant(c.id, req.authReqId))).toBe("access_denied");
    expect(await db.accessToken.count({ where: { subscriberId: s.id } })).toBe(0);
  });

  it("suspension denies an approved, not yet redeemed request: access_denied, no tokens", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    const { id, authReqId } = await createBackchannelRequest({ clientId: c.id, subscriberId: s.id });
    expect(await settle(id)).toBe(true);
    await suspendSubscriber({ msisdn: s.msisdn });
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).status).toBe("denied");
    expect(await errorOf(grant(c.id, authReqId))).toBe("access_denied");
    expect(await db.accessToken.count({ where: { subscriberId: s.id } })).toBe(0);
  });

  it("suspension of a ping client's pending request queues the notification that tells the client", async () => {
    const c = await createCibaClient({ mode: "ping", notificationEndpoint: "pending" });
    await db.client.update({ where: { id: c.id }, data: { backchannelClientNotificationEndpoint: `${rp.base}/ping/${c.id}` } });
    const s = await createTestSubscriber();
    const { id } = await createBackchannelRequest({ clientId: c.id, subscriberId: s.id, mode: "ping" });
    await suspendSubscriber({ msisdn: s.msisdn });
    expect(await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: "denied" });
    expect(await db.backchannelNotification.count({ where: { requestId: id, kind: "ping" } })).toBe(1);
  });

  it("an approval of a suspended subscriber's request settles nothing", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    const { id } = await createBackchannelRequest({ clientId: c.id, subscriberId: s.id });
    await db.subscriber.update({ where: { id: s.id }, data: { status: "suspended" } });
    expect(await settle(id)).toBe(false);
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).status).toBe("pending");
    expect(await settle(id, { outcome: "denied" })).toBe(true); // a denial still ends it
  });

  it("the token endpoint mints nothing for an approved request whose subscriber is no longer active", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    const { id, authReqId } = await createBackchannelRequest({ clientId: c.id, subscriberId: s.id });
    expect(await settle(id)).toBe(true);
    await db.subscriber.update({ where: { id: s.id }, data: { status: "suspended" } }); // not through suspendSubscriber
    expect(await errorOf(grant(c.id, authReqId))).toBe("access_denied");
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).status).toBe("approved");
    expect(await db.accessToken.count({ where: { subscriberId: s.id } })).toBe(0);
  });

  it("push: an approved request whose subscriber is no longer active is pushed access_denied, no tokens", async () => {
    const { client, path } = await pushClient();
    const s = await createTestSubscriber();
    const { id, authReqId } = await createBackchannelRequest({ clientId: client.id, subscriberId: s.id, mode: "push" });
    await db.subscriber.update({ where: { id: s.id }, data: { status: "suspended" } });
    // Settled as the handset would have just before the suspension (the approval itself now refuses it).
    await db.backchannelRequest.update({ where: { id }, data: { status: "approved", answeredAt: new Date(),
      authTime: new Date(), amr: "hwk" } });
    await db.backchannelNotification.create({ data: { id: `n${id.slice(0, 20)}`, requestId: id, clientId: client.id,
      kind: "push", nextAttemptAt: new Date() } });
    const row = await settledNotification(id);
    expect(row).toMatchObject({ deliveredAt: expect.any(Date), tokenFamilyId: null });
    expect(rp.at(path).map((r) => r.body)).toEqual([{ auth_req_id: authReqId, error: "access_denied",
      error_description: expect.any(String) }]);
    expect(await db.accessToken.count({ where: { subscriberId: s.id } })).toBe(0);
  }, 30_000);
});

describe("M5: rt_hash in a pushed id_token", () => {
  it("a push with a refresh token: the id_token carries urn:openid:params:jwt:claim:rt_hash of it", async () => {
    const { client, path } = await pushClient();
    const s = await createTestSubscriber();
    const { id, authReqId } = await createBackchannelRequest({ clientId: client.id, subscriberId: s.id, mode: "push" });
    expect(await settle(id)).toBe(true);
    await settledNotification(id);
    const [push] = rp.at(path);
    const body = push!.body as Record<string, string>;
    expect(body.refresh_token).toEqual(expect.any(String));
    const { payload } = await jwtVerify(body.id_token!, jwks, { audience: client.id });
    expect(payload[AUTH_REQ_ID_CLAIM]).toBe(authReqId);
    expect(payload.at_hash).toBe(accessTokenHash(body.access_token!));
    expect(payload[RT_HASH_CLAIM]).toBe(accessTokenHash(body.refresh_token!));
  }, 30_000);

  it("no refresh token, or not pushed (poll, ping): no rt_hash", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    const { id } = await createBackchannelRequest({ clientId: c.id, subscriberId: s.id });
    expect(await settle(id)).toBe(true);
    const request = await db.backchannelRequest.findUniqueOrThrow({ where: { id } });
    const client = (await getClient({ clientId: c.id }))!;
    const now = new Date();
    const pushed = decodeJwt((await backchannelIdToken({ client, request, accessToken: "at", now, authReqId: "x",
      refreshToken: "rt" }))!);
    expect(pushed[RT_HASH_CLAIM]).toBe(accessTokenHash("rt"));
    const noRefresh = decodeJwt((await backchannelIdToken({ client, request, accessToken: "at", now, authReqId: "x" }))!);
    expect(noRefresh).not.toHaveProperty([RT_HASH_CLAIM]);
    const polled = decodeJwt((await backchannelIdToken({ client, request, accessToken: "at", now, refreshToken: "rt" }))!);
    expect(polled).not.toHaveProperty([RT_HASH_CLAIM]);
    // The token endpoint (poll) sends its refresh token without rt_hash, as the code flow.
    const tokens = await grant(c.id, (await createPolled(c.id, s.id)).authReqId);
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(decodeJwt(tokens.idToken!)).not.toHaveProperty([RT_HASH_CLAIM]);
  });
});

async function createPolled(clientId: string, subscriberId: string) {
  const created = await createBackchannelRequest({ clientId, subscriberId });
  expect(await settle(created.id)).toBe(true);
  return created;
}

describe("S5: one client holds at most PER_CLIENT_IN_FLIGHT delivery slots", () => {
  interface Row extends OutboxRow { due: number }

  /** An outbox in memory: `hostile`'s endpoint never answers; every other client's answers at once. */
  function memoryOutbox(rows: Row[]) {
    const sent: string[] = [];
    const release: Array<() => void> = [];
    const outbox: Outbox<Row> = {
      label: `test outbox ${Math.random()}`,
      policy: { maxAttempts: 5, firstRetryMs: 2_000, factor: 3 },
      findDue: async (where, take) => rows
        .filter((r) => !where.clientId?.notIn.includes(r.clientId) && !sent.includes(r.id))
        .sort((a, b) => a.due - b.due).slice(0, take),
      claim: async (where) => ({ count: sent.includes(where.id) ? 0 : 1 }),
      record: async () => ({}),
      send: (row): Promise<Outcome> => {
        sent.push(row.id);
        if (row.clientId !== "hostile") return Promise.resolve({ delivered: true, status: 200 });
        return new Promise((resolve) => release.push(() => resolve({ delivered: false, final: false, error: "timeout" })));
      },
    };
    return { outbox, sent, release };
  }

  it("a hanging client with many due notifications does not delay another client's ping beyond one pass", async () => {
    const rows: Row[] = Array.from({ length: 60 }, (_, i) => ({ id: `h${i}`, clientId: "hostile", attempts: 0, due: i }));
    rows.push({ id: "good", clientId: "innocent", attempts: 0, due: 1_000 }); // due last of all
    const { outbox, sent, release } = memoryOutbox(rows);
    const first = await startDue(outbox, { take: 20 });
    expect(first).toHaveLength(PER_CLIENT_IN_FLIGHT + 1);
    await Promise.race([Promise.all(first.slice(-1)), new Promise((r) => setTimeout(r, 1_000))]);
    expect(sent).toContain("good");
    expect(sent.filter((id) => id.startsWith("h"))).toHaveLength(PER_CLIENT_IN_FLIGHT);
    // While its attempts hang, the hostile client gets no further slot; its rows stay due.
    expect(await startDue(outbox, { take: 20 })).toHaveLength(0);
    for (const r of release) r();
    await Promise.all(first);
    expect(await startDue(outbox, { take: 20 })).toHaveLength(PER_CLIENT_IN_FLIGHT);
    for (const r of release) r();
  });
});

describe("S6: a poll that races the approval", () => {
  it("recordBackchannelPoll: the request moved on since the read is not slow_down, and the interval does not grow", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    const { id } = await createBackchannelRequest({ clientId: c.id, subscriberId: s.id, interval: 5 });
    const row = await db.backchannelRequest.findUniqueOrThrow({ where: { id } });
    expect(await settle(id)).toBe(true); // the approval lands between the poll's read and its UPDATE
    expect(await recordBackchannelPoll({ id, interval: row.interval, now: new Date() })).toBe("moved");
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).interval).toBe(5);
  });

  it("cibaGrant: a poll whose read was pending but whose UPDATE met the approval gets the tokens", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    const { id, authReqId } = await createBackchannelRequest({ clientId: c.id, subscriberId: s.id, interval: 5 });
    const stale = await db.backchannelRequest.findUniqueOrThrow({ where: { id } });
    expect(await settle(id)).toBe(true);
    staleRead.next = stale;
    const tokens = await grant(c.id, authReqId);
    expect(tokens.accessToken).toEqual(expect.any(String));
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).status).toBe("redeemed");
  });

  it("cibaGrant: a poll whose UPDATE met a denial is access_denied, not slow_down", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    const { id, authReqId } = await createBackchannelRequest({ clientId: c.id, subscriberId: s.id, interval: 5 });
    const stale = await db.backchannelRequest.findUniqueOrThrow({ where: { id } });
    expect(await settle(id, { outcome: "denied" })).toBe(true);
    staleRead.next = stale;
    expect(await errorOf(grant(c.id, authReqId))).toBe("access_denied");
    expect((await db.backchannelRequest.findUniqueOrThrow({ where: { id } })).interval).toBe(5);
  });
});
