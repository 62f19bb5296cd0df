#!/usr/bin/env node
// `npm start`: migrate, seed demo data, build when needed, serve (server/main.ts). `npm run dev`: the same with `next dev`.
import { spawnSync, spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, readdirSync } from "node:fs";
import path from "node:path";
import { ensureLocalSecrets, projectRoot as root } from "./env.mjs";
import { enableWal } from "./sqlite-wal.mjs";
import { SERVER_NODE_FLAGS } from "./server-node-flags.mjs";

const dev = process.argv.includes("--dev");
process.env.NEXT_TELEMETRY_DISABLED = "1";
ensureLocalSecrets();
process.env.DATABASE_URL ||= `file:${path.join(root, "prisma", "dev.db")}`;
const bin = (name) => path.join(root, "node_modules", ".bin", name);

function run(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...extraEnv } });
  if (r.status !== 0) {
    console.error(`\n${path.basename(cmd)} ${args.join(" ")} failed (exit ${r.status}).`);
    process.exit(r.status ?? 1);
  }
}

// Fail fast, with one message naming the variable, before anything else starts.
run(bin("tsx"), ["scripts/check-config.ts"]);
// PostgreSQL (postgresql:// URL): its own generated client and migrations (prisma/postgres, docs/operations.md, "PostgreSQL schema, migrations and client").
const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL);
const pgClientSchema = path.join(root, "node_modules", ".prisma", "client-pg", "schema.prisma");
if (onPostgres && (!existsSync(pgClientSchema)
  || readFileSync(pgClientSchema, "utf8") !== readFileSync(path.join(root, "prisma", "postgres", "schema.prisma"), "utf8"))) {
  run(process.execPath, ["scripts/postgres-schema.mjs", "--client"]); // missing or generated from an older schema
}
if (onPostgres) run(process.execPath, ["scripts/migrate-postgres.mjs"]);
else run(bin("prisma"), ["migrate", "deploy"]);
enableWal(process.env.DATABASE_URL);
run(bin("tsx"), ["prisma/seed.ts"]);

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

if (!dev) {
  const buildId = path.join(root, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID");
  const sources = ["app", "components", "lib", "prisma/schema.prisma", "next.config.js", "proxy.ts", "instrumentation.ts",
    "package-lock.json"]
    .map((p) => path.join(root, p)).filter(existsSync)
    .map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs));
  if (!existsSync(buildId) || Math.max(...sources) > statSync(buildId).mtimeMs) {
    run(bin("prisma"), ["generate"]);
    run(bin("next"), ["build"], { NODE_ENV: "production" });
  }
}

// `next dev` has no server/main.ts: nothing strips a client's own enrichment header nor takes the peer address and
// port from the socket, so X-Forwarded-For and the port header are the client's word. Network-based authentication
// (docs/network-authentication.md) is therefore off in development unless NETWORK_RESOLVER is set explicitly
// (in the environment or a .env file).
if (dev && !process.env.NETWORK_RESOLVER && ![".env", ".env.local", ".env.development", ".env.development.local"]
  .some((f) => existsSync(path.join(root, f)) && /^\s*NETWORK_RESOLVER\s*=/m.test(readFileSync(path.join(root, f), "utf8")))) {
  process.env.NETWORK_RESOLVER = "none";
  console.log("npm run dev: network-based authentication is off (NETWORK_RESOLVER=none; set it to enable).");
}

const port = process.env.PORT || "3000";
const host = process.env.HOST || "127.0.0.1";
// Production: the lean server (server/main.ts, bundled by esbuild beside the Next.js build) answers
// the protocol endpoints itself and hands everything else to Next.js in the same process.
if (!dev) run(process.execPath, ["scripts/build-server.mjs"]);
const serverBundle = path.join(root, process.env.NEXT_DIST_DIR || ".next", "server.mjs");
const child = dev
  ? spawn(bin("next"), ["dev", "-p", port, "-H", host], { cwd: root, stdio: "inherit", env: process.env })
  : spawn(process.execPath, [...SERVER_NODE_FLAGS, serverBundle], {
    cwd: root, stdio: "inherit", env: { ...process.env, PORT: port, HOST: host, NODE_ENV: "production" },
  });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
