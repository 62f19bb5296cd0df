// Micro-measure the SQLite statements of one full flow through SqliteStore (in-process, warm).
import { execSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import Database from "better-sqlite3";
import { SqliteStore } from "../lib/store/sqlite-store";
import { randomToken, sha256 } from "../lib/crypto";
const file = `${process.cwd()}/.tmp/sqlcost.db`;
for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
execSync(`npx prisma migrate deploy`, { env: { ...process.env, DATABASE_URL: `file:${file}` }, stdio: "ignore" });
const setup = new Database(file);
setup.pragma("journal_mode = WAL");
setup.exec(`INSERT INTO Client (id, name, redirectUris, allowedScopes, sectorIdentifier, createdAt, updatedAt) VALUES ('c1','c','[]','openid','a','2026-01-01T00:00:00.000+00:00','2026-01-01T00:00:00.000+00:00')`);
setup.exec(`INSERT INTO Subscriber (id, msisdn, createdAt, updatedAt) VALUES ('s1','447700900777','2026-01-01T00:00:00.000+00:00','2026-01-01T00:00:00.000+00:00')`);
setup.close();
const interval = Number(process.env.CP ?? 500);
const store = new SqliteStore(file, 5000, { checkpointIntervalMs: interval });
await store.checkpointer?.ready;
for (const p of (process.env.PRAGMAS ?? "").split(";").filter(Boolean)) (store as unknown as { db: Database.Database }).db.pragma(p);
const N = Number(process.env.N ?? 3000);
async function one() {
  const codeHash = sha256(randomToken(32));
  const now = new Date();
  await store.insertAuthorizationCode({ codeHash, clientId: "c1", subscriberId: "s1", sessionId: null, redirectUri: "https://a/cb",
    scope: "openid mc_identity_phonenumber", nonce: "n", acr: "3", amr: "otp sms pin", authTime: now, expiresAt: new Date(now.getTime() + 60000), codeChallenge: null, claimsLocales: null });
  await store.findAuthorizationCode(codeHash);
  await store.redeemAuthorizationCode({ codeHash, usedAt: now,
    accessToken: { tokenHash: sha256(randomToken(32)), clientId: "c1", subscriberId: "s1", scope: "openid", codeHash, familyId: null, acr: "3", authTime: now, expiresAt: new Date(now.getTime() + 3600000) },
    audit: { id: randomUUID(), at: now, type: "token_issued", outcome: "success", subscriberRef: sha256("s1"), clientId: "c1", ip: null, detail: '{"grant":"authorization_code"}' } });
}
for (let i = 0; i < 500; i++) await one();
const c0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < N; i++) await one();
const c = process.cpuUsage(c0);
console.log(`checkpoint ${interval}: ${((performance.now() - t0) / N * 1000).toFixed(0)} µs wall, ${((c.user + c.system) / N).toFixed(0)} µs CPU (user ${(c.user / N).toFixed(0)}, sys ${(c.system / N).toFixed(0)}) per flow's statements`);
await store.close();
