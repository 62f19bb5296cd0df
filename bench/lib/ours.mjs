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

/** Starts our server and prepares the benchmark's client, subscriber and signed-in browser. */
export async function startOurs({ distDir, serverCore, log, cpuProfDir = null, extraEnv = {} }) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const { file, url } = freshDatabase();
  const env = {
    ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: url, ISSUER: origin, PORT: String(port), LOG_LEVEL: "warn",
    KEY_ENCRYPTION_SECRET: randomBytes(32).toString("base64url"), SUBJECT_SECRET: randomBytes(32).toString("base64url"),
    ...extraEnv, // bench/ab.mjs: BENCH_AB_ENV_A / _B (e.g. METRICS=off), one server each
  };
  // node <next's bin> rather than the .bin shim: --cpu-prof is not allowed in NODE_OPTIONS.
  const prof = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir, "ours")}`] : [];
  // Always current with lib/, also with --no-build; BENCH_KEEP_BUNDLE=1 runs the bundle as it is
  // (bench/ab.mjs compares two builds).
  if (!process.env.BENCH_KEEP_BUNDLE) bundleServer({ distDir });
  const serverBundle = path.join(root, distDir, "server.mjs");
  const created = admin(env, ["client", "create", "--name", "BenchApp", "--redirect-uri", REDIRECT_URI,
    "--scope", ...CLIENT_SCOPES, "--expires-in", "seconds"]);
  // The private_key_jwt client of the key scenarios (flowKey, flowKeyDpop): the same options, keys instead of a secret.
  const keyed = admin(env, ["client", "create", "--name", "BenchKeyApp", "--redirect-uri", REDIRECT_URI,
    "--scope", ...CLIENT_SCOPES, "--expires-in", "seconds", "--auth-method", "private_key_jwt",
    "--jwks", JSON.stringify({ keys: [clientPublicJwk] })]);
  admin(env, ["subscriber", "create", "--msisdn", MSISDN, "--pin", PIN]);
  const browserId = signedInBrowser({ file, subscriberMsisdn: MSISDN, clientIds: [created.client_id, keyed.client_id],
    scope: CLIENT_SCOPES.join(" ") });
  numberVerificationSetup({ file, subscriberMsisdn: MSISDN, clientId: created.client_id });

  log(`starting our service on ${origin} (production server ${path.relative(root, serverBundle)}, ${distDir})…`);
  // The production server's flags (scripts/server-node-flags.mjs), then BENCH_NODE_FLAGS (space-separated,
  // for trying others, e.g. --trace-gc).
  const extra = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const child = track(spawn(...pinned(serverCore, process.execPath, [...prof, ...SERVER_NODE_FLAGS, ...extra, serverBundle]), {
    cwd: root, env: { ...env, HOST: "127.0.0.1" }, stdio: ["ignore", 2, 2], // its output on our stderr: stdout carries the report
  }));
  await waitHealthy(child, `${origin}/api/health`);
  const client = { id: created.client_id, secret: created.client_secret };
  return {
    name: "ours", label: "this service", pid: child.pid, origin, env, databaseFile: file,
    paths: { authorize: "/authorize", token: "/token", resource: "/premiuminfo",
      metadata: "/.well-known/openid-configuration", jwks: "/jwks" },
    client, refreshClient: client, keyClient: { id: keyed.client_id }, redirectUri: REDIRECT_URI, cookie: `op_browser=${browserId}`, browserId,
    msisdn: MSISDN, nv: { localAddress: NV_LOCAL_ADDRESS, scope: NV_SCOPE, verify: "/number-verification/v2/verify" },
    flowScope: "openid mc_identity_phonenumber", refreshScope: "openid mc_identity_phonenumber offline_access",
    async stop() {
      await stopChild(child);
      for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
    },
  };
}
