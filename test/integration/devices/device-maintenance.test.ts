import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freshDatabase, startServer, TEST_SECRETS, type RunningServer } from "../../support/server";
import { db } from "@/lib/db";
import { config } from "@/lib/config";
import { randomToken, sha256 } from "@/lib/crypto";
import { purgeExpired } from "@/lib/maintenance/purge-expired";
import { createTestSubscriber } from "../../support/fixtures";

/**
 * Maintenance of issue 5's data (and the other short-lived rows): the purge of expired rows (in
 * process, by the admin command, and periodically inside a running server) and the operator's
 * handset commands. On a fresh database of its own, so row counts are exact and nobody else's
 * rows are touched.
 */

const root = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = path.join(root, "node_modules", ".bin", "tsx");
let databaseUrl = "";
vi.setConfig({ testTimeout: 90_000 });

beforeAll(() => {
  databaseUrl = freshDatabase("maintenance");
  process.env.DATABASE_URL = databaseUrl;
  expect(config().DATABASE_URL).toBe(databaseUrl);
});

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(TSX, ["scripts/admin.ts", ...args], {
      cwd: root, env: { ...process.env, ...TEST_SECRETS, DATABASE_URL: databaseUrl },
    }, (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

const DAY = 86_400_000;
const at = (msFromNow: number) => new Date(Date.now() + msFromNow);

/** `n` rows of every purgeable kind expired `age` ms ago (negative: still valid), plus audit events. */
async function seed(n: number, age: number, subscriberId: string) {
  const expiresAt = at(-age);
  for (let i = 0; i < n; i++) {
    const id = randomToken(16);
    await db.authorizationRequest.create({ data: { id, clientId: "c", params: "{}", browserIdHash: "h", expiresAt } });
    await db.deviceRequest.create({ data: { id: randomToken(16), authorizationRequestId: id, subscriberId, clientName: "c",
      scope: "openid", acr: "2", expiresAt } });
    await db.deviceEnrolment.create({ data: { id: randomToken(16), msisdn: "447700900001", codeHash: "x", expiresAt } });
    const code = { clientId: "c", subscriberId, redirectUri: "https://rp/cb", scope: "openid", acr: "2", amr: "otp",
      authTime: new Date(), expiresAt };
    await db.authorizationCode.create({ data: { codeHash: sha256(randomToken(8)), ...code } });
    await db.message.create({ data: { id: randomToken(16), msisdn: "447700900001", body: "hi", createdAt: at(-age - DAY) } });
    await db.rateLimit.create({ data: { key: randomToken(12), count: 1, windowStart: at(-age - 60_000), expiresAt } });
    await db.accessToken.create({ data: { tokenHash: sha256(randomToken(8)), clientId: "c", subscriberId, scope: "openid",
      expiresAt: at(-age - DAY) } });
    await db.refreshToken.create({ data: { tokenHash: sha256(randomToken(8)), familyId: "f", clientId: "c", subscriberId,
      scope: "openid", acr: "2", amr: "otp", authTime: new Date(), expiresAt: at(-age - DAY) } });
    await db.auditEvent.create({ data: { id: randomToken(16), type: "test", outcome: "success", at: at(-age - 400 * DAY) } });
    await db.clientAccessToken.create({ data: { tokenHash: sha256(randomToken(8)), clientId: "c", scope: "introspection",
      expiresAt: at(-age - DAY) } });
    await db.usedJwtId.create({ data: { key: randomToken(12), expiresAt } });
    await db.pushedAuthorizationRequest.create({ data: { uriHash: randomToken(12), clientId: "c", params: "{}", expiresAt } });
    await db.initialAccessToken.create({ data: { tokenHash: randomToken(12), usesLeft: 1, expiresAt } });
  }
}

async function counts() {
  const [deviceRequests, deviceEnrolments, authorizationRequests, authorizationCodes, messages, rateLimits,
    accessTokens, refreshTokens, auditEvents, clientAccessTokens, usedJwtIds, pushedRequests, initialAccessTokens] =
  await Promise.all([
    db.deviceRequest.count(), db.deviceEnrolment.count(), db.authorizationRequest.count(), db.authorizationCode.count(),
    db.message.count(), db.rateLimit.count(), db.accessToken.count(), db.refreshToken.count(), db.auditEvent.count(),
    db.clientAccessToken.count(), db.usedJwtId.count(), db.pushedAuthorizationRequest.count(), db.initialAccessToken.count(),
  ]);
  return { deviceRequests, deviceEnrolments, authorizationRequests, authorizationCodes, messages, rateLimits,
    accessTokens, refreshTokens, auditEvents, clientAccessTokens, usedJwtIds, pushedRequests, initialAccessTokens };
}

/** Empties the purgeable tables (the audit log is append-only: database triggers refuse deletes). */
async function clear() {
  await db.$transaction([db.deviceRequest.deleteMany(), db.deviceEnrolment.deleteMany(), db.authorizationRequest.deleteMany(),
    db.authorizationCode.deleteMany(), db.message.deleteMany(), db.rateLimit.deleteMany(), db.accessToken.deleteMany(),
    db.refreshToken.deleteMany(), db.clientAccessToken.deleteMany(), db.usedJwtId.deleteMany(), db.pushedAuthorizationRequest.deleteMany(),
    db.initialAccessToken.deleteMany()]);
}

describe("purge of expired rows", () => {
  it("deletes what expired beyond its grace, in bounded batches, keeps live rows and audit events", async () => {
    await clear();
    const s = await createTestSubscriber();
    await seed(7, 2 * DAY, s.id); // long expired
    await seed(3, -60_000, s.id); // still valid (messages a day old, tokens expired less than the grace: kept)
    // expired only just now: inside the grace, kept (a returning browser still reads "expired")
    await db.deviceRequest.create({ data: { id: randomToken(16), authorizationRequestId: randomToken(16), subscriberId: s.id,
      clientName: "c", scope: "openid", acr: "2", expiresAt: at(-1000) } });
    // a used code is kept while tokens issued from it may live (replay must still revoke them)
    await db.authorizationCode.create({ data: { codeHash: sha256("used"), clientId: "c", subscriberId: s.id,
      redirectUri: "https://rp/cb", scope: "openid", acr: "2", amr: "otp", authTime: new Date(), expiresAt: at(-2 * DAY),
      usedAt: at(-2 * DAY) } });
    const before = await counts();
    expect(before).toEqual({ deviceRequests: 11, deviceEnrolments: 10, authorizationRequests: 10, authorizationCodes: 11,
      messages: 10, rateLimits: 10, accessTokens: 10, refreshTokens: 10, auditEvents: before.auditEvents,
      clientAccessTokens: 10, usedJwtIds: 10, pushedRequests: 10, initialAccessTokens: 10 });
    expect(before.auditEvents).toBeGreaterThanOrEqual(10);

    const purged = await purgeExpired({ batch: 3 });
    expect(purged).toEqual({ deviceRequests: 7, deviceEnrolments: 7, authorizationRequests: 7, authorizationCodes: 7,
      messages: 7, rateLimits: 7, accessTokens: 7, refreshTokens: 7, clientAccessTokens: 7,
      usedJwtIds: 7, pushedRequests: 7, initialAccessTokens: 7, backchannelRequests: 0, backchannelNotifications: 0 });
    expect(await counts()).toEqual({ deviceRequests: 4, deviceEnrolments: 3, authorizationRequests: 3, authorizationCodes: 4,
      messages: 3, rateLimits: 3, accessTokens: 3, refreshTokens: 3, auditEvents: before.auditEvents,
      clientAccessTokens: 3, usedJwtIds: 3, pushedRequests: 3, initialAccessTokens: 3 });
    expect(await db.authorizationCode.findUnique({ where: { codeHash: sha256("used") } })).not.toBeNull();
    // nothing left to do: a second run deletes nothing
    expect(Object.values(await purgeExpired()).every((n) => n === 0)).toBe(true);
    // past the longest token lifetime the used code goes too
    const later = new Date(Date.now() + config().REFRESH_TOKEN_TTL * 1000);
    expect((await purgeExpired({ now: later })).authorizationCodes).toBeGreaterThanOrEqual(1);
  });

  it("runs as the admin command purge-expired, with --json", async () => {
    await clear();
    const s = await createTestSubscriber();
    await seed(2, 2 * DAY, s.id);
    const audit = (await counts()).auditEvents;
    const run = await admin("purge-expired", "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ purged: { deviceRequests: 2, deviceEnrolments: 2, authorizationRequests: 2,
      authorizationCodes: 2, messages: 2, rateLimits: 2, accessTokens: 2, refreshTokens: 2, clientAccessTokens: 2, usedJwtIds: 2,
      pushedRequests: 2,
      initialAccessTokens: 2, backchannelRequests: 0, backchannelNotifications: 0 } });
    const human = await admin("purge-expired");
    expect(human.stdout).toContain("deviceRequests: 0 row(s) deleted");
    expect((await counts()).auditEvents).toBeGreaterThanOrEqual(audit); // append-only; the CLI audits its own runs
  });
});

/** The real default abuse limits (the shared test server lifts them), as in production. */
// TRUSTED_PROXY=127.0.0.1: each test speaks from its own X-Forwarded-For address, as behind one proxy.
const LIMITS = { OTP_SEND_LIMIT_PER_MSISDN: "5", OTP_SEND_LIMIT_PER_IP: "20", TRUSTED_PROXY: "127.0.0.1" };

describe("a server of its own: periodic purge, enrolment code limits", () => {
  let server: RunningServer | undefined;
  afterAll(async () => server?.stop());

  it("purges every PURGE_INTERVAL seconds (instrumentation hook)", async () => {
    await clear();
    const s = await createTestSubscriber();
    await seed(3, 2 * DAY, s.id);
    const audit = (await counts()).auditEvents;
    server = await startServer({ name: "maintenance", databaseUrl, env: { PURGE_INTERVAL: "1", ...LIMITS } });
    await vi.waitFor(async () => expect(await counts()).toMatchObject({ deviceRequests: 0, deviceEnrolments: 0,
      authorizationRequests: 0, authorizationCodes: 0, messages: 0, rateLimits: 0, accessTokens: 0, refreshTokens: 0 }),
    { timeout: 20_000, interval: 250 });
    expect((await counts()).auditEvents).toBeGreaterThanOrEqual(audit);
  });

  const enrol = (msisdn: string, ip: string) => fetch(`${server!.baseUrl}/handset/enrol/start`, {
    method: "POST", redirect: "manual", body: new URLSearchParams({ msisdn }),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server!.baseUrl, "x-forwarded-for": ip },
  });

  it("enrolment codes per number: after the limit, 429 with Retry-After and no message; unknown numbers alike", async () => {
    const s = await createTestSubscriber();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 6; i++) {
      last = await enrol(`+${s.msisdn}`, `10.1.${i}.1`);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last!.headers.get("cache-control")).toBe("no-store");
    expect(await last!.text()).toContain("Too many codes were requested");
    expect(await db.message.count({ where: { msisdn: s.msisdn } })).toBe(5);
    expect(await db.deviceEnrolment.count({ where: { msisdn: s.msisdn } })).toBe(5);
    const unknown: number[] = [];
    for (let i = 0; i < 6; i++) unknown.push((await enrol("447000111222", `10.2.${i}.1`)).status);
    expect(unknown).toEqual(statuses);
  });

  it("enrolment codes per IP address, whatever the numbers", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await enrol(`4478000000${String(i).padStart(2, "0")}`, "10.3.3.3")).status);
    expect(statuses.slice(0, 20).every((st) => st === 303)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it("refuses a bad PURGE_INTERVAL like every other variable", async () => {
    const { parseConfig } = await import("@/lib/config");
    expect(() => parseConfig({ ...TEST_SECRETS, PURGE_INTERVAL: "-5" })).toThrow(/PURGE_INTERVAL/);
    expect(() => parseConfig({ ...TEST_SECRETS, PURGE_INTERVAL: "soon" })).toThrow(/PURGE_INTERVAL/);
    expect(parseConfig({ ...TEST_SECRETS }).PURGE_INTERVAL).toBe(600);
    expect(parseConfig({ ...TEST_SECRETS, PURGE_INTERVAL: "0" }).PURGE_INTERVAL).toBe(0);
  });
});

describe("admin CLI: handsets", () => {
  it("device list shows a subscriber's handsets; device revoke revokes one (it must enrol again)", async () => {
    const s = await createTestSubscriber();
    // A device id as enrolment makes it (a UUID): a random token may start with "-", which the CLI reads as an option.
    const id = randomUUID();
    await db.device.create({ data: { id, subscriberId: s.id, name: "Bob's phone", secretHash: sha256(randomToken(32)) } });
    const list = await admin("device", "list", s.msisdn, "--json");
    expect(list.code, list.stderr).toBe(0);
    const body = JSON.parse(list.stdout);
    expect(body.devices).toHaveLength(1);
    expect(body.devices[0]).toMatchObject({ device_id: id, name: "Bob's phone", status: "active", revoked_at: null });
    expect(list.stdout).not.toMatch(/secret/i);
    await db.deviceRequest.create({ data: { id: randomToken(16), authorizationRequestId: randomToken(16), subscriberId: s.id,
      clientName: "c", scope: "openid", acr: "2", expiresAt: at(60_000) } });

    const revoked = await admin("device", "revoke", id, "--json");
    expect(JSON.parse(revoked.stdout), revoked.stdout + revoked.stderr).toEqual({ revoked: id });
    expect((await db.device.findUniqueOrThrow({ where: { id } })).revokedAt).not.toBeNull();
    // the last handset gone: what was pending on it is answered (expired) now
    expect(await db.deviceRequest.count({ where: { subscriberId: s.id, status: "pending" } })).toBe(0);
    const human = await admin("device", "list", s.msisdn);
    expect(human.stdout).toContain(`${id}  revoked  "Bob's phone"`);

    const again = await admin("device", "revoke", id, "--json");
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({ error: `unknown or already revoked device ${id}` });
    const unknown = await admin("device", "list", "447000000000", "--json");
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error).toContain("unknown subscriber");
  });
});
