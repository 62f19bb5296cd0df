// Our service under test: production build, the production server (server/main.ts) pinned to the server core, a fresh SQLite
// database (migrated, WAL), random secrets, a client and a subscriber created through the admin CLI,
// and a signed-in browser with remembered consent.
import { clientPublicJwk } from "./client-key.mjs";
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { enableWal } from "../../scripts/sqlite-wal.mjs";
import { SERVER_NODE_FLAGS } from "../../scripts/server-node-flags.mjs";
import { bin, freePort, pinned, root, stopChild, track, waitHealthy } from "./processes.mjs";

export const REDIRECT_URI = "https://rp.bench.test/cb";
export const MSISDN = "447700900777";
const PIN = "2580";
const CLIENT_SCOPES = ["openid", "mc_identity_phonenumber", "mc_identity_signup", "offline_access"];
/**
 * Number Verification (issue 21, scenario `numberVerification`): the bench client's loopback address, mapped to the
 * subscriber's number in NetworkRange (any port: the client's are ephemeral), and the scopes its client asks.
 */
export const NV_LOCAL_ADDRESS = "127.0.0.77";
export const NV_PURPOSE = "dpv:FraudPreventionAndDetection";
export const NV_SCOPE = `openid number-verification:verify ${NV_PURPOSE}`;

/** `next build` into distDir (production mode, telemetry off). Throws on failure. */
export function buildOurs({ distDir, log }) {
  log(`building the service into ${distDir} (next build)…`);
  const r = spawnSync(bin("next"), ["build"], {
    cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error(`next build failed:\n${(r.stdout ?? "").slice(-3000)}\n${(r.stderr ?? "").slice(-3000)}`);
  bundleServer({ distDir });
}

/** Bundles the production server (server/main.ts) into distDir/server.mjs (esbuild, ~1 s). */
export function bundleServer({ distDir }) {
  const r = spawnSync(process.execPath, ["scripts/build-server.mjs"], {
    cwd: root, encoding: "utf8", env: { ...process.env, NEXT_DIST_DIR: distDir },
  });
  if (r.status !== 0) throw new Error(`scripts/build-server.mjs failed:\n${r.stdout}\n${r.stderr}`);
}

/** A fresh migrated SQLite database in .tmp/ (WAL, as `npm start` sets it). */
function freshDatabase() {
  const dir = path.join(root, ".tmp");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bench-${process.pid}-${Date.now()}.db`);
  for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
  const url = `file:${file}`;
  const r = spawnSync(bin("prisma"), ["migrate", "deploy"], {
    cwd: root, env: { ...process.env, DATABASE_URL: url }, encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`prisma migrate deploy failed: ${r.stderr || r.stdout}`);
  enableWal(url);
  return { file, url };
}

function admin(env, args) {
  const r = spawnSync(bin("tsx"), ["scripts/admin.ts", ...args, "--json"], { cwd: root, env, encoding: "utf8" });
  let out;
  try {
    out = JSON.parse(r.stdout.trim().split("\n").pop());
  } catch {
    throw new Error(`admin ${args.slice(0, 2).join(" ")} printed no JSON: ${r.stdout}${r.stderr}`);
  }
  if (r.status !== 0 || out.error) throw new Error(`admin ${args.slice(0, 2).join(" ")} failed: ${out.error ?? r.stderr}`);
  return out;
}

const sqliteTime = (ms) => new Date(ms).toISOString().replace("Z", "+00:00"); // Prisma's SQLite DateTime text

/**
 * What a completed sign-in (acr 3: one-time code + PIN) and consent leave behind, written directly:
 * a Session row bound to sha256(browser cookie) and a Grant row with the client's scopes. Driving the
 * screens needs a browser and the device inbox; their result is exactly these two rows.
 */
function signedInBrowser({ file, subscriberMsisdn, clientIds, scope }) {
  const browserId = randomBytes(32).toString("base64url"); // 43 characters, as lib/sessions/browser-cookie.ts
  const browserIdHash = createHash("sha256").update(browserId).digest("base64url");
  const db = new Database(file);
  try {
    const { id: subscriberId } = db.prepare("SELECT id FROM Subscriber WHERE msisdn = ?").get(subscriberMsisdn);
    const now = Date.now();
    db.prepare(`INSERT INTO Session (id, browserIdHash, subscriberId, authTime, acr, amr, createdAt, expiresAt, endedAt)
      VALUES (?, ?, ?, ?, '3', 'otp sms pin', ?, ?, NULL)`)
      .run(randomBytes(16).toString("base64url"), browserIdHash, subscriberId, sqliteTime(now - 1000), sqliteTime(now),
        sqliteTime(now + 86_400_000));
    for (const clientId of clientIds) {
      db.prepare(`INSERT INTO "Grant" (id, subscriberId, clientId, scope, createdAt, updatedAt) VALUES (?, ?, ?, ?, ?, ?)`)
        .run(randomUUID(), subscriberId, clientId, scope, sqliteTime(now), sqliteTime(now));
    }
  } finally {
    db.close();
  }
  return browserId;
}

/** An IPv4 address as the 32 hex digits of its IPv6 (IPv4-mapped, ::ffff:a.b.c.d) form, as NetworkRange stores it. */
function mappedHex(ipv4) {
  return `00000000000000000000ffff${ipv4.split(".").map((o) => Number(o).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * What Number Verification needs (docs/number-verification.md), written directly like the signed-in browser: the
 * operator's record that NV_LOCAL_ADDRESS (a /32, every port) is the subscriber's data connection (NetworkRange, what
 * the admin CLI's `network` commands write), the legal basis of the scope and purpose (ApiPurpose: legitimate
 * interest) and the API scopes in the client's allowedScopes and in the subscriber's remembered consent (Grant).
 */
function numberVerificationSetup({ file, subscriberMsisdn, clientId }) {
  const db = new Database(file);
  try {
    const now = sqliteTime(Date.now());
    const hex = mappedHex(NV_LOCAL_ADDRESS);
    db.prepare(`INSERT INTO NetworkRange (id, cidr, firstAddress, lastAddress, prefixLength, portFrom, portTo, msisdn, createdAt)
      VALUES (?, ?, ?, ?, 128, 0, 65535, ?, ?)`).run(randomUUID(), `${NV_LOCAL_ADDRESS}/32`, hex, hex, subscriberMsisdn, now);
    db.prepare(`INSERT INTO ApiPurpose (scope, purpose, legalBasis, createdAt, updatedAt) VALUES (?, ?, 'legitimate_interest', ?, ?)`)
      .run("number-verification:verify", NV_PURPOSE, now, now);
    const scopes = [...CLIENT_SCOPES, ...NV_SCOPE.split(" ").slice(1)].join(" ");
    db.prepare("UPDATE Client SET allowedScopes = ? WHERE id = ?").run(scopes, clientId);
    // The subscriber's remembered consent covers them too (the silent sign-in still asks consent where none is on record).
    db.prepare(`UPDATE "Grant" SET scope = ? WHERE clientId = ?`).run(scopes, clientId);
  } finally {
    db.close();
  }
}

/** The id_token algorithms of the alg scenarios (flowEs256, flowPs256, flowEdDsa): one client each, if the CLI takes it. */
export const EXTRA_ALGS = ["ES256", "PS256", "EdDSA"];

/**
 * Starts our server and prepares the benchmark's client, subscriber and signed-in browser.
 * - `database`: `{ kind: "sqlite" }` (default: a fresh file in .tmp/) or `{ kind: "postgresql", url }` (a fresh,
 *   migrated database on the harness's throw-away cluster: bench/lib/postgres.mjs);
 * - `workers`: the WORKERS variable (1: one process, no cluster primary);
 * - `cores`: what taskset pins it to ("0", "0,1"; null: not pinned); defaults to serverCore;
 * - `shareWith`: an instance already set up on the same database: this one reuses its clients, browser cookie,
 *   secrets and issuer (the two instances behind nginx), and `issuer` sets the ISSUER both use;
 * - `extraAlgs`: the algorithms whose alg-scenario clients to create (bench/run.mjs: those of the scenarios run).
 */
export async function startOurs({ distDir, serverCore, log, cpuProfDir = null, extraEnv = {}, database = { kind: "sqlite" },
  workers = 1, cores, shareWith = null, issuer = null, name = "ours", label = "this service", extraAlgs = [] }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const pg = database.kind === "postgresql";
  const { file, url } = shareWith ? { file: shareWith.databaseFile, url: shareWith.env.DATABASE_URL }
    : pg ? { file: null, url: database.url } : freshDatabase();
  const env = {
    ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: url, ISSUER: issuer ?? shareWith?.env.ISSUER ?? origin, PORT: String(port), LOG_LEVEL: "warn",
    KEY_ENCRYPTION_SECRET: shareWith?.env.KEY_ENCRYPTION_SECRET ?? randomBytes(32).toString("base64url"),
    SUBJECT_SECRET: shareWith?.env.SUBJECT_SECRET ?? randomBytes(32).toString("base64url"),
    WORKERS: String(workers),
    ...extraEnv, // bench/ab.mjs: BENCH_AB_ENV_A / _B (e.g. METRICS=off), one server each
  };
  // node <next's bin> rather than the .bin shim: --cpu-prof is not allowed in NODE_OPTIONS.
  const prof = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir, name)}`] : [];
  // Always current with lib/, also with --no-build; BENCH_KEEP_BUNDLE=1 runs the bundle as it is
  // (bench/ab.mjs compares two builds).
  if (!process.env.BENCH_KEEP_BUNDLE && !shareWith) bundleServer({ distDir });
  const serverBundle = path.join(root, distDir, "server.mjs");
  let setup;
  if (shareWith) setup = shareWith.setup;
  else {
    const created = admin(env, ["client", "create", "--name", "BenchApp", "--redirect-uri", REDIRECT_URI,
      "--scope", ...CLIENT_SCOPES, "--expires-in", "seconds"]);
    // The private_key_jwt client of the key scenarios (flowKey, flowKeyDpop): the same options, keys instead of a secret.
    const keyed = admin(env, ["client", "create", "--name", "BenchKeyApp", "--redirect-uri", REDIRECT_URI,
      "--scope", ...CLIENT_SCOPES, "--expires-in", "seconds", "--auth-method", "private_key_jwt",
      "--jwks", JSON.stringify({ keys: [clientPublicJwk] })]);
    // The alg scenarios: the same secret client with another id_token algorithm (issue 23's `--id-token-alg`);
    // where this build's CLI refuses the flag, the scenario reports "not measured" with the CLI's answer.
    const algClients = {};
    const algRefused = {};
    for (const alg of EXTRA_ALGS.filter((a) => extraAlgs.includes(a))) {
      try {
        const c = admin(env, ["client", "create", "--name", `Bench${alg}App`, "--redirect-uri", REDIRECT_URI,
          "--scope", ...CLIENT_SCOPES, "--expires-in", "seconds", "--id-token-alg", alg]);
        algClients[alg] = { id: c.client_id, secret: c.client_secret };
      } catch (err) {
        algRefused[alg] = `the admin CLI refused \`client create --id-token-alg ${alg}\` (${err.message.slice(0, 160)})`;
      }
    }
    admin(env, ["subscriber", "create", "--msisdn", MSISDN, "--pin", PIN]);
    const clientIds = [created.client_id, keyed.client_id, ...Object.values(algClients).map((c) => c.id)];
    const browserId = pg
      ? await signedInBrowserPg({ url, subscriberMsisdn: MSISDN, clientIds, scope: CLIENT_SCOPES.join(" ") })
      : signedInBrowser({ file, subscriberMsisdn: MSISDN, clientIds, scope: CLIENT_SCOPES.join(" ") });
    if (!pg) numberVerificationSetup({ file, subscriberMsisdn: MSISDN, clientId: created.client_id });
    setup = { created, keyed, algClients, algRefused, browserId };
  }
  const { created, keyed, algClients, algRefused, browserId } = setup;

  const where = cores === undefined ? serverCore : cores;
  log(`starting ${label} on ${origin} (${pg ? "PostgreSQL" : "SQLite"}, WORKERS=${workers}, `
    + `${where === null ? "not pinned" : `core(s) ${where}`}, ${path.relative(root, serverBundle)})…`);
  // The production server's flags (scripts/server-node-flags.mjs), then BENCH_NODE_FLAGS (space-separated,
  // for trying others, e.g. --trace-gc).
  const extra = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const child = track(spawn(...pinned(where, process.execPath, [...prof, ...SERVER_NODE_FLAGS, ...extra, serverBundle]), {
    cwd: root, env: { ...env, HOST: "127.0.0.1" }, stdio: ["ignore", 2, 2], // its output on our stderr: stdout carries the report
  }));
  await waitHealthy(child, `${origin}/api/health`);
  const client = { id: created.client_id, secret: created.client_secret };
  return {
    name, label, pid: child.pid, origin, env, databaseFile: file, database: pg ? "postgresql" : "sqlite", workers, setup,
    paths: { authorize: "/authorize", token: "/token", resource: "/premiuminfo",
      metadata: "/.well-known/openid-configuration", jwks: "/jwks" },
    client, refreshClient: client, keyClient: { id: keyed.client_id }, algClients, algRefused,
    redirectUri: REDIRECT_URI, cookie: `op_browser=${browserId}`, browserId,
    msisdn: MSISDN, nv: pg ? null : { localAddress: NV_LOCAL_ADDRESS, scope: NV_SCOPE, verify: "/number-verification/v2/verify" },
    flowScope: "openid mc_identity_phonenumber", refreshScope: "openid mc_identity_phonenumber offline_access",
    async stop() {
      await stopChild(child);
      if (file && !shareWith) for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    },
  };
}

/** signedInBrowser on PostgreSQL (the same two rows, through node-postgres). */
async function signedInBrowserPg({ url, subscriberMsisdn, clientIds, scope }) {
  const { default: pgLib } = await import("pg");
  const browserId = randomBytes(32).toString("base64url");
  const browserIdHash = createHash("sha256").update(browserId).digest("base64url");
  const c = new pgLib.Client({ connectionString: url });
  await c.connect();
  const ts = (ms) => new Date(ms).toISOString().replace("Z", ""); // TIMESTAMP(3) in UTC, as Prisma writes it
  try {
    const { rows: [{ id: subscriberId }] } = await c.query(`SELECT id FROM "Subscriber" WHERE msisdn = $1`, [subscriberMsisdn]);
    const now = Date.now();
    await c.query(`INSERT INTO "Session" (id, "browserIdHash", "subscriberId", "authTime", acr, amr, "createdAt", "expiresAt", "endedAt")
      VALUES ($1, $2, $3, $4, '3', 'otp sms pin', $5, $6, NULL)`,
    [randomBytes(16).toString("base64url"), browserIdHash, subscriberId, ts(now - 1000), ts(now), ts(now + 86_400_000)]);
    for (const clientId of clientIds) {
      await c.query(`INSERT INTO "Grant" (id, "subscriberId", "clientId", scope, "createdAt", "updatedAt") VALUES ($1, $2, $3, $4, $5, $6)`,
        [randomUUID(), subscriberId, clientId, scope, ts(now), ts(now)]);
    }
  } finally {
    await c.end();
  }
  return browserId;
}
