import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { hashSecret } from "@/lib/crypto";
import { userCodeFailuresFromDynamicClients } from "@/lib/ciba/check-user-code";
import { rateLimitWindow } from "@/lib/security/hit-rate-limit";
import { startServer, type RunningServer } from "../../support/server";
import { createTestSubscriber } from "../../support/fixtures";
import { createCibaClient } from "../../support/ciba-support";
import { bcAuthorize } from "./bc-support";

/**
 * Issue 33, item 6: the dynamic clients' daily cap of wrong `user_code`s per subscriber
 * (USER_CODE_FAILURES_DYNAMIC_PER_SUBSCRIBER, lib/ciba/check-user-code.ts) is reserved before the scrypt check, so tens
 * of parallel guesses across two workers never get more checks than the cap; a right code gives its reservation back.
 * A dynamic client's checked wrong code is accepted like a number nobody has (never `invalid_user_code`: the request is
 * withheld, on no handset), so the checks show as 200s and the cap's refusals as `slow_down`.
 * A server of its own (WORKERS=2); on PostgreSQL too when TEST_DATABASE=postgres.
 */
let server: RunningServer;
// 220 client authentications and up to 40 user_code checks (scrypt each) on a shared machine.
vi.setConfig({ testTimeout: 240_000 });
const CAP = 20;
const CODE = "open-sesame";

beforeAll(async () => {
  server = await startServer({ name: "user-code-race", env: { WORKERS: "2", USER_CODE_FAILURES_DYNAMIC_PER_SUBSCRIBER: String(CAP) } });
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

const dynamicClients = (n: number) => Promise.all(Array.from({ length: n }, async () => {
  const c = await createCibaClient({ userCodeParameter: true });
  await db.client.update({ where: { id: c.id }, data: { registeredBy: "dynamic", sectorIdentifier: `client:${c.id}` } });
  return c;
}));
const ask = (client: { id: string; secret?: string }, msisdn: string, userCode: string) =>
  bcAuthorize(client, { scope: "openid", login_hint: msisdn, user_code: userCode }, { baseUrl: server.baseUrl });
const tally = (answers: { status: number; body: Record<string, unknown> }[]) => {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 200 ? "ok" : String(a.body.error);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

describe("the dynamic clients' daily user_code cap under parallel guesses", () => {
  it("20 self-registered clients x 10 wrong codes at once: at most the cap are checked (withheld), the rest slow_down", async () => {
    const s = await createTestSubscriber({ attributes: { userCodeHash: await hashSecret(CODE) } });
    const clients = await dynamicClients(20);
    const answers = await Promise.all(clients.flatMap((c) =>
      Array.from({ length: 10 }, (_, i) => ask(c, s.msisdn, `guess-${c.id}-${i}`))));
    const counts = tally(answers);
    // Exactly the cap checked: the daily counter holds the wrong codes checked (a refused try gives its reservation
    // back). A checked one is accepted (withheld). On a loaded machine PostgreSQL's pool may not start some of 200 at
    // once in time: those are 503 temporarily_unavailable, as for any request; without them the tally is exact.
    expect((await db.rateLimit.findUnique({
      where: { key: rateLimitWindow(userCodeFailuresFromDynamicClients(), s.id, Date.now()).key } }))?.count).toBe(CAP);
    expect(Object.keys(counts).filter((k) => !["ok", "slow_down", "temporarily_unavailable"].includes(k))).toEqual([]);
    expect(counts.ok ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(CAP);
    if (!counts.temporarily_unavailable) expect(counts).toEqual({ ok: CAP, slow_down: 200 - CAP });
    // The checked ones were withheld: stored as for a subscriber who is not active (the "handset" of nobody), never
    // sent by text message as an active subscriber without a handset's request would be.
    expect(await db.backchannelRequest.groupBy({ by: ["channel"], where: { subscriberId: s.id }, _count: true }))
      .toEqual(counts.ok ? [{ channel: "handset", _count: counts.ok }] : []);
    // The operator's clients are not affected.
    const operator = await createCibaClient({ userCodeParameter: true });
    expect((await ask(operator, s.msisdn, CODE)).status).toBe(200);
  });

  it("right codes give their reservation back: after 20 of them at once, 20 wrong ones are still checked", async () => {
    const s = await createTestSubscriber({ attributes: { userCodeHash: await hashSecret(CODE) } });
    const right = await Promise.all((await dynamicClients(CAP)).map((c) => ask(c, s.msisdn, CODE)));
    expect(tally(right)).toEqual({ ok: CAP });
    await db.backchannelRequest.updateMany({ where: { subscriberId: s.id }, data: { status: "denied" } });
    const wrong = await Promise.all((await dynamicClients(CAP)).map((c) => ask(c, s.msisdn, "wrong")));
    expect(tally(wrong)).toEqual({ ok: CAP });
    expect(await db.backchannelRequest.count({ where: { subscriberId: s.id, channel: "handset" } })).toBe(CAP);
    // And now the cap is full: the next wrong one is not checked.
    expect(tally([await ask((await dynamicClients(1))[0]!, s.msisdn, "wrong")])).toEqual({ slow_down: 1 });
  });
});
