import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { startServer, type RunningServer } from "../../support/server";
import { createTestSubscriber } from "../../support/fixtures";
import { createCibaClient } from "../../support/ciba-support";
import { enrolledDevice } from "../../support/mobile-support";
import { bcAuthorize, expectError } from "./bc-support";

/**
 * The out-of-band limits at /bc-authorize, on a server of its own with real limits (the shared test server lifts
 * them): keyed per client, not per address (every request here comes from 127.0.0.1, whose per-IP limit is 2);
 * per client and number, per number, and the pending ceilings per subscriber and per client, text-message
 * requests included. A refusal is 429 slow_down with Retry-After, and nothing is stored.
 */
let server: RunningServer;
const at = () => ({ baseUrl: server.baseUrl });

beforeAll(async () => {
  server = await startServer({ name: "ciba-limits", env: {
    APPROVAL_LIMIT_PER_IP: "2", APPROVAL_LIMIT_PER_IP_AND_NUMBER: "3", APPROVAL_LIMIT_PER_NUMBER: "10",
    APPROVAL_LIMIT_PER_CLIENT: "1000", APPROVAL_PENDING_PER_SUBSCRIBER: "5", APPROVAL_PENDING_PER_CLIENT: "8",
  } });
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

const ask = (client: { id: string; secret?: string }, msisdn: string) =>
  bcAuthorize(client, { scope: "openid", login_hint: msisdn }, at());

async function expectSlowDown(r: Awaited<ReturnType<typeof bcAuthorize>>) {
  expectError(r, 429, "slow_down");
  expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
}

describe("limits at /bc-authorize", () => {
  it("per client and number (3 per 15 minutes), not per address: another client may still ask", async () => {
    const alice = await createTestSubscriber({ status: "suspended" }); // 4 pending: below the ceiling (5)
    const [c1, c2] = [await createCibaClient(), await createCibaClient()];
    for (let i = 0; i < 3; i++) expect((await ask(c1, alice.msisdn)).status).toBe(200);
    const refused = await ask(c1, alice.msisdn);
    await expectSlowDown(refused);
    expect((await ask(c2, alice.msisdn)).status).toBe(200);
    expect(await db.backchannelRequest.count({ where: { clientId: c1.id } })).toBe(3);
    const audit = await db.auditEvent.findMany({ where: { clientId: c1.id, type: "backchannel_requested" } });
    expect(audit.filter((e) => e.outcome === "throttled")).toHaveLength(1);
  });

  it("per number (10 per 15 minutes), whichever clients ask", async () => {
    const bob = await createTestSubscriber({ status: "suspended" });
    const clients = await Promise.all([1, 2, 3, 4].map(() => createCibaClient()));
    const statuses = [];
    // Each request ends before the next (the pending ceiling counts a suspended subscriber too, review 20 M3).
    const endPending = () => db.backchannelRequest.updateMany({ where: { subscriberId: bob.id, status: "pending" },
      data: { status: "denied" } });
    for (const c of clients) for (let i = 0; i < 3; i++) { statuses.push((await ask(c, bob.msisdn)).status); await endPending(); }
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it("pending per subscriber (5) on the handset", async () => {
    const carol = await createTestSubscriber();
    await enrolledDevice(carol);
    const [c1, c2] = [await createCibaClient(), await createCibaClient()];
    for (let i = 0; i < 3; i++) expect((await ask(c1, carol.msisdn)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await ask(c2, carol.msisdn)).status).toBe(200);
    await expectSlowDown(await ask(c2, carol.msisdn));
    expect(await db.deviceRequest.count({ where: { subscriberId: carol.id } })).toBe(5);
  });

  it("pending per subscriber (5) for text-message requests too; no text sent when refused", async () => {
    const dora = await createTestSubscriber();
    const [c1, c2] = [await createCibaClient(), await createCibaClient()];
    for (let i = 0; i < 3; i++) expect((await ask(c1, dora.msisdn)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await ask(c2, dora.msisdn)).status).toBe(200);
    await expectSlowDown(await ask(c2, dora.msisdn));
    expect(await db.message.count({ where: { msisdn: dora.msisdn } })).toBe(5);
    expect(await db.backchannelRequest.count({ where: { subscriberId: dora.id } })).toBe(5);
  });

  it("pending per client (8), handset and text-message requests together", async () => {
    const c = await createCibaClient();
    const subscribers = await Promise.all(Array.from({ length: 9 }, () => createTestSubscriber()));
    for (const s of subscribers.slice(0, 4)) await enrolledDevice(s);
    for (const s of subscribers.slice(0, 8)) expect((await ask(c, s.msisdn)).status).toBe(200);
    await expectSlowDown(await ask(c, subscribers[8]!.msisdn));
    expect(await db.message.count({ where: { msisdn: subscribers[8]!.msisdn } })).toBe(0);
  });
});
