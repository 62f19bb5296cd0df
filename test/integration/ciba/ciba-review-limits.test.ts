import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { hashSecret } from "@/lib/crypto";
import { getClient } from "@/lib/clients/get-client";
import { createBackchannelRequest } from "@/lib/ciba/bc-authorize/create-backchannel-request";
import { createDeviceRequest } from "@/lib/out-of-band/create-device-request";
import { startServer, type RunningServer } from "../../support/server";
import { createTestSubscriber } from "../../support/fixtures";
import { createCibaClient } from "../../support/ciba-support";
import { enrolledDevice } from "../../support/mobile-support";
import { bcAuthorize, expectError } from "./bc-support";

/**
 * Review 20 (limits): refused requests spend only the limits they passed (M1), a per-client call limit before the
 * hint is resolved (M2), the pending ceiling for suspended subscribers (M3), dynamically registered clients in
 * buckets of their own (M6, S3), the shortest requested_expiry (S5), and the ceilings under parallel creation
 * (S7; on PostgreSQL when TEST_DATABASE=postgres). A server of its own with real limits.
 */
let server: RunningServer;
const at = () => ({ baseUrl: server.baseUrl });
const CALLS_PER_CLIENT = 12;
const USER_CODE_FAILURES_DYNAMIC = 4;

beforeAll(async () => {
  server = await startServer({ name: "ciba-review-limits", env: {
    APPROVAL_LIMIT_PER_IP: "2", APPROVAL_LIMIT_PER_IP_AND_NUMBER: "3", APPROVAL_LIMIT_PER_NUMBER: "10",
    APPROVAL_LIMIT_PER_CLIENT: "1000", APPROVAL_PENDING_PER_SUBSCRIBER: "5", APPROVAL_PENDING_PER_CLIENT: "100",
    APPROVAL_LIMIT_PER_NUMBER_DYNAMIC: "3", APPROVAL_PENDING_DYNAMIC_PER_SUBSCRIBER: "2",
    USER_CODE_FAILURES_DYNAMIC_PER_SUBSCRIBER: String(USER_CODE_FAILURES_DYNAMIC),
    BACKCHANNEL_LIMIT_PER_CLIENT: String(CALLS_PER_CLIENT),
  } });
  process.env.DATABASE_URL = server.databaseUrl;
  expect(config().DATABASE_URL).toBe(server.databaseUrl);
}, 120_000);
afterAll(() => server?.stop());

const ask = (client: { id: string; secret?: string }, msisdn: string, extra: Record<string, string> = {}) =>
  bcAuthorize(client, { scope: "openid", login_hint: msisdn, ...extra }, at());
const dynamicClient = async (opts: { userCodeParameter?: boolean } = {}) => {
  const c = await createCibaClient(opts);
  await db.client.update({ where: { id: c.id }, data: { registeredBy: "dynamic" } });
  return c;
};
/** Ends the subscriber's pending requests (as if answered), so only the window counters stay in the way. */
const answerAll = (subscriberId: string) =>
  db.backchannelRequest.updateMany({ where: { subscriberId, status: "pending" }, data: { status: "denied" } });

describe("M1: a refused request counts only in the limits it passed", () => {
  it("one client's 7 refused requests leave the per-number budget to another client and the browser flow", async () => {
    const s = await createTestSubscriber();
    const [attacker, innocent] = [await createCibaClient(), await createCibaClient()];
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await ask(attacker, s.msisdn)).status);
    expect(statuses).toEqual([200, 200, 200, ...Array(7).fill(429)]);
    expect((await ask(innocent, s.msisdn)).status).toBe(200);
    const browser = await createDeviceRequest({ authorizationRequestId: "none", flow: "phone",
      numberKey: `msisdn:${s.msisdn}`, subscriberId: s.id, client: { id: innocent.id, name: "x" },
      text: { verified: false }, scope: "openid", acr: "2", expiresAt: new Date(Date.now() + 60_000),
      ip: "198.51.100.9", userAgent: null });
    expect(browser.ok).toBe(true);
  });
});

describe("M2: one hit per client for every call, before the hint is resolved", () => {
  it("an exhausted client gets 429 for a known and an unknown number alike", async () => {
    const c = await createCibaClient();
    const known = await createTestSubscriber();
    for (let i = 0; i < CALLS_PER_CLIENT; i++) expectError(await ask(c, `4479${String(i).padStart(8, "0")}`), 400, "unknown_user_id");
    const answers = [await ask(c, known.msisdn), await ask(c, "447999999999")];
    for (const r of answers) {
      expectError(r, 429, "slow_down");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(await db.backchannelRequest.count({ where: { clientId: c.id } })).toBe(0);
  });

  it("missing_user_code is counted too", async () => {
    const c = await createCibaClient({ userCodeParameter: true });
    const s = await createTestSubscriber({ attributes: { userCodeHash: await hashSecret("open-sesame") } });
    for (let i = 0; i < CALLS_PER_CLIENT; i++) expectError(await ask(c, s.msisdn), 400, "missing_user_code");
    expectError(await ask(c, s.msisdn), 429, "slow_down");
  });
});

describe("M3: the pending ceiling counts a suspended subscriber like an active one", () => {
  it("the 6th pending request is refused for both", async () => {
    const [a, b] = [await createCibaClient(), await createCibaClient()];
    for (const status of ["active", "suspended"]) {
      const s = await createTestSubscriber({ status });
      const statuses = [];
      for (const c of [a, a, a, b, b, b]) statuses.push((await ask(c, s.msisdn)).status);
      expect(statuses, status).toEqual([200, 200, 200, 200, 200, 429]);
    }
  });
});

describe("M6: dynamically registered clients", () => {
  it("count per number in a bucket of their own (3), never in the shared one", async () => {
    const s = await createTestSubscriber();
    const dynamic = await Promise.all([1, 2, 3, 4].map(() => dynamicClient()));
    const statuses = [];
    for (const c of dynamic) { statuses.push((await ask(c, s.msisdn)).status); await answerAll(s.id); }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The operator's clients still have the whole shared per-number budget (10).
    const operator = await Promise.all([1, 2, 3, 4].map(() => createCibaClient()));
    const theirs = [];
    for (const c of operator) for (let i = 0; i < 3; i++) { theirs.push((await ask(c, s.msisdn)).status); await answerAll(s.id); }
    expect(theirs.filter((x) => x === 200)).toHaveLength(10);
  });

  it("hold at most 2 of a subscriber's pending requests; operator clients are not affected", async () => {
    const s = await createTestSubscriber();
    const [d1, d2, d3] = [await dynamicClient(), await dynamicClient(), await dynamicClient()];
    expect((await ask(d1, s.msisdn)).status).toBe(200);
    expect((await ask(d2, s.msisdn)).status).toBe(200);
    expectError(await ask(d3, s.msisdn), 429, "slow_down");
    expect((await ask(await createCibaClient(), s.msisdn)).status).toBe(200);
  });
});

describe("S3: wrong user codes from dynamic clients, per subscriber", () => {
  it("beyond the cap a dynamic client's user_code is not checked; operator clients are not affected", async () => {
    const s = await createTestSubscriber({ attributes: { userCodeHash: await hashSecret("open-sesame") } });
    const dynamic = await Promise.all([1, 2].map(() => dynamicClient({ userCodeParameter: true })));
    // Each wrong code is answered like a number nobody has (accepted, withheld: issue 33), or refused by the dynamic
    // clients' per-number limit (3) like any request; either way it is counted against the cap.
    const statuses = [];
    for (let i = 0; i < USER_CODE_FAILURES_DYNAMIC; i++) {
      statuses.push((await ask(dynamic[i % 2]!, s.msisdn, { user_code: `guess-${i}` })).status);
      await answerAll(s.id);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const fresh = await dynamicClient({ userCodeParameter: true });
    expectError(await ask(fresh, s.msisdn, { user_code: "open-sesame" }), 429, "slow_down");
    const audit = await db.auditEvent.findMany({ where: { clientId: fresh.id, type: "backchannel_requested" } });
    expect(audit.map((e) => [e.outcome, JSON.parse(e.detail ?? "{}").limit]))
      .toEqual([["throttled", "ciba-user-code-dyn"]]);
    const operator = await createCibaClient({ userCodeParameter: true });
    expect((await ask(operator, s.msisdn, { user_code: "open-sesame" })).status).toBe(200);
  });
});

describe("S5: requested_expiry", () => {
  it("below 30 seconds -> 400 invalid_request; 30 is accepted", async () => {
    const c = await createCibaClient();
    const s = await createTestSubscriber();
    for (const v of ["1", "29"]) expectError(await ask(c, s.msisdn, { requested_expiry: v }), 400, "invalid_request");
    expect((await ask(c, s.msisdn, { requested_expiry: "30" })).status).toBe(200);
  });
});

describe("S7: the pending ceiling holds under parallel creation", () => {
  it("20 parallel requests from 20 clients for one subscriber leave exactly the ceiling pending", async () => {
    const s = await createTestSubscriber();
    await enrolledDevice(s); // the handset channel: no text message from this process
    const clients = await Promise.all(Array.from({ length: 20 }, async () => (await getClient({ clientId: (await createCibaClient()).id }))!));
    const request = { scopes: ["openid"], acr: "2" as const, hint: { kind: "login_hint" as const, value: s.msisdn },
      bindingMessage: null, expiresIn: 600, notificationToken: null, userCode: undefined };
    const results = await Promise.all(clients.map((client) => createBackchannelRequest({ client,
      subscriber: { id: s.id, msisdn: s.msisdn, status: "active", locale: null, userCodeHash: null }, request,
      loginHint: null, ip: "203.0.113.7", userAgent: null }).then(() => "ok", (err: { error?: string }) => err.error ?? String(err))));
    expect(results.filter((r) => r !== "ok" && r !== "slow_down")).toEqual([]);
    const ceiling = config().APPROVAL_PENDING_PER_SUBSCRIBER;
    expect(results.filter((r) => r === "ok")).toHaveLength(ceiling);
    expect(await db.backchannelRequest.count({ where: { subscriberId: s.id, status: "pending" } })).toBe(ceiling);
  });
});
