import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import Database from "better-sqlite3";
import { createPrismaClient, db } from "@/lib/db";
import { randomToken, sha256 } from "@/lib/crypto";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { getHotStore } from "./get-hot-store";
import { setStatementListener } from "./statement-listener";

// The hot-path store and Prisma share one database: each must read exactly what the other wrote
// (Prisma's storage format: DateTime text / timestamp, Boolean 0/1 / bool), in both directions.
const ms = (d: Date | null | undefined) => d?.getTime() ?? null;

/** A fresh client and subscriber, and an authorization code row for them the store can insert. */
async function newCodeRow() {
  const client = await createTestClient();
  const subscriber = await createTestSubscriber();
  const codeHash = sha256(randomToken(32));
  const row = { codeHash, clientId: client.id, subscriberId: subscriber.id, redirectUri: client.redirectUri, scope: "openid",
    acr: "2", amr: "otp", authTime: new Date(), expiresAt: new Date(Date.now() + 60_000) };
  return { subscriber, codeHash, row };
}

describe("hot-path store <-> Prisma storage format", () => {
  it("reads a subscriber, session, grant and code Prisma wrote", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber({ attributes: { lockedUntil: new Date("2030-01-02T03:04:05.678Z") } });
    const store = getHotStore();
    const read = await store.findSubscriber(subscriber.id);
    expect(read).toEqual(await db.subscriber.findUnique({ where: { id: subscriber.id } }));
    expect(read?.emailVerified).toBe(true);
    expect(read?.lockedUntil?.toISOString()).toBe("2030-01-02T03:04:05.678Z");
    expect(await store.findSubscriberStatus(subscriber.id)).toBe("active");
    expect(await store.findSubscriber("nobody")).toBeNull();

    const browserIdHash = sha256(randomToken(32));
    const now = new Date();
    const authTime = new Date(now.getTime() - 5000);
    const live = await db.session.create({ data: { id: randomUUID(), browserIdHash, subscriberId: subscriber.id, authTime,
      acr: "3", amr: "otp sms pin", expiresAt: new Date(now.getTime() + 60_000) } });
    await db.session.create({ data: { id: randomUUID(), browserIdHash, subscriberId: subscriber.id, authTime,
      acr: "3", amr: "otp", expiresAt: new Date(now.getTime() - 1) } }); // expired: not live
    await db.session.create({ data: { id: randomUUID(), browserIdHash, subscriberId: subscriber.id, authTime,
      acr: "3", amr: "otp", expiresAt: new Date(now.getTime() + 60_000), endedAt: now } }); // ended
    const sessions = await store.findLiveSessions({ browserIdHash, now });
    expect(sessions).toEqual([{ id: live.id, subscriberId: subscriber.id, authTime, acr: "3", amr: "otp sms pin" }]);
    expect(await store.findLiveSessions({ browserIdHash, now, msisdn: subscriber.msisdn })).toHaveLength(1);
    expect(await store.findLiveSessions({ browserIdHash, now, msisdn: "000" })).toHaveLength(0);
    expect(await store.findLiveSessions({ browserIdHash, now, subscriberId: "other" })).toHaveLength(0);

    await db.grant.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: client.id, scope: "openid profile" } });
    expect(await store.findGrantScope({ subscriberId: subscriber.id, clientId: client.id })).toBe("openid profile");
    expect(await store.findGrantScope({ subscriberId: subscriber.id, clientId: "other" })).toBeNull();

    const codeHash = sha256(randomToken(32));
    await db.authorizationCode.create({ data: { codeHash, clientId: client.id, subscriberId: subscriber.id,
      redirectUri: client.redirectUri, scope: "openid", acr: "3", amr: "otp", authTime, expiresAt: new Date(now.getTime() + 60_000) } });
    expect(await store.findAuthorizationCode(codeHash)).toEqual(await db.authorizationCode.findUnique({ where: { codeHash } }));
  });

  it("completes a stored request with its code once, recording the pairwise subject Prisma reads", async () => {
    const { subscriber, codeHash, row } = await newCodeRow();
    const store = getHotStore();
    const requestId = randomToken(16);
    await db.authorizationRequest.create({ data: { id: requestId, clientId: row.clientId, params: "{}",
      browserIdHash: sha256(randomToken(32)), status: "consented", expiresAt: new Date(Date.now() + 60_000) } });
    const session = await db.session.create({ data: { id: randomUUID(), browserIdHash: sha256(randomToken(32)),
      subscriberId: subscriber.id, authTime: new Date(), acr: "2", amr: "otp", expiresAt: new Date(Date.now() + 60_000) } });
    const pairwise = { sub: sha256(randomToken(8)), subscriberId: subscriber.id, sectorIdentifier: "rp.example" };
    const open = ["pending", "authenticated", "consented"];
    const complete = (hash: string) => store.completeAuthorizationRequest({ requestId, openStatuses: open,
      sessionId: session.id, subscriberId: subscriber.id, code: { ...row, codeHash: hash, sessionId: session.id }, pairwise });
    expect(await complete(codeHash)).toBe(true);
    expect(await db.authorizationRequest.findUnique({ where: { id: requestId } }))
      .toMatchObject({ status: "completed", sessionId: session.id, subscriberId: subscriber.id });
    expect(await db.authorizationCode.findUnique({ where: { codeHash } })).toMatchObject({ sessionId: session.id });
    const pcr = await db.pairwiseSubject.findUniqueOrThrow({ where: { sub: pairwise.sub } });
    expect(pcr).toMatchObject({ subscriberId: subscriber.id, sectorIdentifier: "rp.example" });
    expect(pcr.createdAt).toBeInstanceOf(Date);
    // Completed: a second code is refused and nothing of it is written.
    const second = sha256(randomToken(32));
    expect(await complete(second)).toBe(false);
    expect(await db.authorizationCode.findUnique({ where: { codeHash: second } })).toBeNull();
  });

  it("writes codes and tokens Prisma reads, spends each code and refresh token once", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const store = getHotStore();
    const now = new Date(Date.now() - 1234);
    const authTime = new Date(now.getTime() - 60_000);
    const codeHash = sha256(randomToken(32));
    await store.insertAuthorizationCode({ codeHash, clientId: client.id, subscriberId: subscriber.id, sessionId: null,
      redirectUri: client.redirectUri, scope: "openid offline_access", nonce: "n", acr: "3", amr: "otp sms pin", authTime,
      expiresAt: new Date(now.getTime() + 60_000), codeChallenge: null, claimsLocales: "fr en" });
    const code = await db.authorizationCode.findUniqueOrThrow({ where: { codeHash } });
    expect(code).toMatchObject({ nonce: "n", claimsLocales: "fr en", usedAt: null, sessionId: null });
    expect(ms(code.authTime)).toBe(authTime.getTime());
    expect(code.createdAt).toBeInstanceOf(Date);
    expect(await store.findAuthorizationCode(codeHash)).toEqual(code);

    const familyId = randomToken(16);
    const accessHash = sha256(randomToken(32));
    const refreshHash = sha256(randomToken(32));
    const common = { clientId: client.id, subscriberId: subscriber.id, scope: "openid offline_access", codeHash, acr: "3", authTime };
    const statements: string[] = [];
    setStatementListener((sql) => statements.push(sql));
    const redeemed = await store.redeemAuthorizationCode({ codeHash, usedAt: now,
      accessToken: { ...common, tokenHash: accessHash, familyId, expiresAt: new Date(now.getTime() + 3600_000) },
      refreshToken: { ...common, tokenHash: refreshHash, familyId, amr: "otp sms pin", expiresAt: new Date(now.getTime() + 86_400_000) } });
    setStatementListener(null);
    expect(redeemed).toBe(true);
    expect(statements.map((s) => s.split(" ")[0])).toEqual(["BEGIN", "UPDATE", "INSERT", "INSERT", "COMMIT"]);
    expect(ms((await db.authorizationCode.findUniqueOrThrow({ where: { codeHash } })).usedAt)).toBe(now.getTime());
    const access = await db.accessToken.findUniqueOrThrow({ where: { tokenHash: accessHash } });
    expect(access).toMatchObject({ familyId, revokedAt: null, scope: "openid offline_access" });
    expect(await store.findAccessToken(accessHash)).toEqual(access);
    expect(await store.findAccessTokenWithSubscriber(accessHash)).toEqual({ token: access,
      subscriber: await db.subscriber.findUnique({ where: { id: subscriber.id } }) });
    expect(await store.findAccessTokenWithSubscriber("unknown")).toBeNull();
    // A second redemption writes nothing.
    expect(await store.redeemAuthorizationCode({ codeHash, usedAt: new Date(),
      accessToken: { ...common, tokenHash: sha256(randomToken(32)), expiresAt: new Date() } })).toBe(false);
    expect(await db.accessToken.count({ where: { codeHash } })).toBe(1);

    // Prisma's revocation is seen by the store; rotation spends the refresh token once.
    const refresh = await store.findRefreshToken(refreshHash);
    // Read with its subscriber's status (one statement for the refresh grant).
    expect(refresh).toEqual({ ...await db.refreshToken.findUniqueOrThrow({ where: { tokenHash: refreshHash } }),
      subscriberStatus: "active" });
    const nextHash = sha256(randomToken(32));
    const rotate = () => store.rotateRefreshToken({ tokenHash: refreshHash, usedAt: new Date(),
      next: { ...common, tokenHash: nextHash, familyId, amr: "otp sms pin", expiresAt: refresh!.expiresAt },
      accessToken: { ...common, tokenHash: sha256(randomToken(32)), familyId, expiresAt: new Date(Date.now() + 1000) } });
    expect(await rotate()).toBe(true);
    expect(await rotate()).toBe(false);
    expect(await db.refreshToken.count({ where: { familyId } })).toBe(2);
    await db.refreshToken.updateMany({ where: { tokenHash: nextHash }, data: { revokedAt: new Date() } });
    expect((await store.findRefreshToken(nextHash))?.revokedAt).toBeInstanceOf(Date);
  });

  it.skipIf(!config().DATABASE_URL.startsWith("file:"))("SQLite: waits for a write lock another connection holds instead of failing or blocking the event loop", async () => {
    const { subscriber, codeHash, row } = await newCodeRow();
    let insertDone = false;
    // Prisma's interactive transaction holds the write lock across awaits; the store's insert must
    // retry asynchronously (a synchronous busy wait would deadlock the transaction it waits for).
    await db.$transaction(async (tx) => {
      await tx.message.create({ data: { id: randomUUID(), msisdn: "0", body: "lock" } });
      const insert = getHotStore().insertAuthorizationCode(row).then(() => { insertDone = true; });
      await new Promise((r) => setTimeout(r, 50));
      expect(insertDone).toBe(false);
      void insert;
    });
    await expect.poll(() => insertDone).toBe(true);
    expect(await db.authorizationCode.count({ where: { codeHash } })).toBe(1);
  });

  it.skipIf(!config().DATABASE_URL.startsWith("file:"))("SQLite: a Prisma transaction that reads first still writes after the store committed meanwhile (BEGIN IMMEDIATE)", async () => {
    const { subscriber, codeHash, row } = await newCodeRow();
    let insert: Promise<void> | undefined;
    // A deferred BEGIN would read from a snapshot; the store's commit in between would make the
    // transaction's first write fail at once with SQLITE_BUSY (its snapshot is stale), whatever the
    // busy timeout. Prisma's transactions take the write lock at BEGIN, so the store waits instead.
    await db.$transaction(async (tx) => {
      await tx.subscriber.findUniqueOrThrow({ where: { id: subscriber.id } });
      insert = getHotStore().insertAuthorizationCode(row);
      await new Promise((r) => setTimeout(r, 20));
      await tx.subscriber.update({ where: { id: subscriber.id }, data: { givenName: "after the read" } });
    });
    await insert;
    expect((await db.subscriber.findUniqueOrThrow({ where: { id: subscriber.id } })).givenName).toBe("after the read");
    expect(await db.authorizationCode.count({ where: { codeHash } })).toBe(1);
  });

  it.skipIf(!config().DATABASE_URL.startsWith("file:"))("SQLite: Prisma's connection leaves WAL checkpoints to the worker (inline only past 10,000 pages)", async () => {
    const [row] = await db.$queryRawUnsafe<Array<{ wal_autocheckpoint: number | bigint }>>("PRAGMA wal_autocheckpoint");
    expect(Number(row!.wal_autocheckpoint)).toBe(10_000);
  });

  it.skipIf(!config().DATABASE_URL.startsWith("file:"))("SQLite: a transaction that cannot get the lock in time fails cleanly, and the next one works (no stuck client)", async () => {
    const url = config().DATABASE_URL;
    const client = createPrismaClient(url, {}, 100); // 100 ms busy timeout
    const holder = new Database(url.slice("file:".length));
    try {
      const subscriber = await createTestSubscriber();
      holder.exec("BEGIN IMMEDIATE");
      await expect(client.$transaction(async (tx) => {
        await tx.subscriber.findUniqueOrThrow({ where: { id: subscriber.id } });
        await tx.subscriber.update({ where: { id: subscriber.id }, data: { givenName: "while locked" } });
      })).rejects.toThrow(/locked|busy|timed out/i);
      holder.exec("ROLLBACK");
      await client.$transaction(async (tx) => {
        await tx.subscriber.update({ where: { id: subscriber.id }, data: { givenName: "after the lock" } });
      }, { maxWait: 2000, timeout: 5000 });
      expect((await db.subscriber.findUniqueOrThrow({ where: { id: subscriber.id } })).givenName).toBe("after the lock");
    } finally {
      if (holder.inTransaction) holder.exec("ROLLBACK");
      holder.close();
      await client.$disconnect();
    }
  });

  it.skipIf(!config().DATABASE_URL.startsWith("file:"))("SQLite: writes of one event-loop turn commit together; a write that fails or finds its code spent is undone alone", async () => {
    const a = await newCodeRow();
    const b = await newCodeRow();
    const c = await newCodeRow();
    const store = getHotStore();
    await store.insertAuthorizationCode(c.row);
    const common = { clientId: c.row.clientId, subscriberId: c.row.subscriberId, scope: "openid", acr: "2", authTime: new Date() };
    const redeem = (tokenHash: string) => store.redeemAuthorizationCode({ codeHash: c.codeHash, usedAt: new Date(),
      accessToken: { ...common, tokenHash, codeHash: c.codeHash, expiresAt: new Date(Date.now() + 60_000) } });
    const statements: string[] = [];
    setStatementListener((sql) => statements.push(sql));
    const firstToken = sha256(randomToken(32));
    const secondToken = sha256(randomToken(32));
    try {
      const results = await Promise.allSettled([
        store.insertAuthorizationCode(a.row),
        store.insertAuthorizationCode({ ...b.row, codeHash: a.codeHash }), // same primary key: fails
        redeem(firstToken),
        redeem(secondToken), // the code is spent by now: false
        store.insertAuthorizationCode(b.row),
      ]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled", "fulfilled"]);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
      expect((results[2] as PromiseFulfilledResult<boolean>).value).toBe(true);
      expect((results[3] as PromiseFulfilledResult<boolean>).value).toBe(false);
    } finally {
      setStatementListener(null);
    }
    expect(statements.filter((sql) => sql.startsWith("BEGIN"))).toHaveLength(1);
    expect(statements.filter((sql) => sql === "COMMIT")).toHaveLength(1);
    expect((await db.authorizationCode.findUniqueOrThrow({ where: { codeHash: a.codeHash } })).subscriberId).toBe(a.subscriber.id);
    expect(await db.authorizationCode.count({ where: { codeHash: b.codeHash } })).toBe(1);
    expect(await db.accessToken.count({ where: { tokenHash: { in: [firstToken, secondToken] } } })).toBe(1);
    expect(await db.accessToken.count({ where: { tokenHash: firstToken } })).toBe(1);
    expect((await db.authorizationCode.findUniqueOrThrow({ where: { codeHash: c.codeHash } })).usedAt).toBeInstanceOf(Date);
  });

  it.skipIf(!config().DATABASE_URL.startsWith("file:"))("SQLite: a write that cannot get the lock within the wait fails with the lock error; later writes work", async () => {
    const url = config().DATABASE_URL;
    const { SqliteStore } = await import("./sqlite-store");
    const store = new SqliteStore(url.slice("file:".length), 150);
    const holder = new Database(url.slice("file:".length));
    try {
      const first = await newCodeRow();
      holder.exec("BEGIN IMMEDIATE");
      const started = Date.now();
      await expect(store.insertAuthorizationCode(first.row)).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_BUSY/) });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      holder.exec("ROLLBACK");
      expect(await db.authorizationCode.count({ where: { codeHash: first.codeHash } })).toBe(0);
      const next = await newCodeRow();
      await store.insertAuthorizationCode(next.row);
      expect(await db.authorizationCode.count({ where: { codeHash: next.codeHash } })).toBe(1);
    } finally {
      if (holder.inTransaction) holder.exec("ROLLBACK");
      holder.close();
      await store.close();
    }
  });
});

describe("hot-path store: DPoP (issue 19)", () => {
  it("reserves a replay-cache key once among parallel calls, in the format Prisma reads", async () => {
    const store = getHotStore();
    const key = sha256(randomToken(16));
    const expiresAt = new Date(Date.now() + 120_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => store.reserveJwtId({ key, expiresAt })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(ms((await db.usedJwtId.findUniqueOrThrow({ where: { key } })).expiresAt)).toBe(expiresAt.getTime());
    expect(await store.reserveJwtId({ key, expiresAt })).toBe(false);
  });

  it("writes and reads back an access token's dpopJkt in the same statements (the join included)", async () => {
    const { row, codeHash, subscriber } = await newCodeRow();
    const store = getHotStore();
    await store.insertAuthorizationCode(row);
    const tokenHash = sha256(randomToken(32));
    expect(await store.redeemAuthorizationCode({ codeHash, usedAt: new Date(), accessToken: { clientId: row.clientId,
      subscriberId: subscriber.id, scope: "openid", codeHash, acr: "2", authTime: row.authTime, tokenHash,
      expiresAt: new Date(Date.now() + 60_000), dpopJkt: "jkt-1" } })).toBe(true);
    expect((await db.accessToken.findUniqueOrThrow({ where: { tokenHash } })).dpopJkt).toBe("jkt-1");
    expect((await store.findAccessTokenWithSubscriber(tokenHash))?.token.dpopJkt).toBe("jkt-1");
    expect((await store.findAccessToken(tokenHash))?.dpopJkt).toBe("jkt-1");
  });
});

describe("hot-path store: single-use access tokens (issue 21, Number Verification)", () => {
  it("spends a token Prisma wrote once among parallel calls; never an expired or revoked one", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const store = getHotStore();
    const token = async (expiresInMs: number, revokedAt: Date | null = null) => {
      const tokenHash = sha256(randomToken(32));
      await db.accessToken.create({ data: { tokenHash, clientId: client.id, subscriberId: subscriber.id, scope: "openid",
        expiresAt: new Date(Date.now() + expiresInMs), revokedAt } });
      return tokenHash;
    };
    const live = await token(60_000);
    const at = new Date();
    const results = await Promise.all(Array.from({ length: 20 }, () => store.spendAccessToken({ tokenHash: live, at })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(ms((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: live } })).revokedAt)).toBe(at.getTime());
    expect(await store.spendAccessToken({ tokenHash: live, at: new Date() })).toBe(false);
    expect(await store.spendAccessToken({ tokenHash: await token(-1_000), at: new Date() })).toBe(false);
    const revokedAt = new Date(Date.now() - 5_000);
    const revoked = await token(60_000, revokedAt);
    expect(await store.spendAccessToken({ tokenHash: revoked, at: new Date() })).toBe(false);
    expect(ms((await db.accessToken.findUniqueOrThrow({ where: { tokenHash: revoked } })).revokedAt)).toBe(revokedAt.getTime());
    expect(await store.spendAccessToken({ tokenHash: "unknown", at: new Date() })).toBe(false);
  });
});
