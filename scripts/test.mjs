#!/usr/bin/env node
// `npm test`: build once, then unit + integration (Vitest, against a running server) and end-to-end
// (Playwright in Debian's Chromium). Prints one closing line: "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { projectRoot as root } from "./env.mjs";
import { findPostgresBin, startPgCluster } from "./pg-cluster.mjs";

const e2eOnly = process.argv.includes("--e2e-only");
const skipBuild = process.argv.includes("--no-build");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}: install it with "apt-get install -y chromium" or set CHROMIUM_PATH.`);
  process.exit(1);
}

const testEnv = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  KEY_ENCRYPTION_SECRET: "test-key-encryption-secret-0123456789abcdef",
  SUBJECT_SECRET: "test-subject-secret-0123456789abcdef-0123",
};
function run(cmd, args, env = testEnv) {
  return spawnSync(cmd, args, { cwd: root, stdio: "inherit", env }).status ?? 1;
}

mkdirSync(path.join(root, ".tmp"), { recursive: true });
if (!skipBuild) {
  if (run(bin("prisma"), ["generate"]) !== 0) process.exit(1);
  if (run(bin("next"), ["build"], { ...testEnv, NODE_ENV: "production" }) !== 0) {
    console.error("next build failed");
    process.exit(1);
  }
  // The production server bundle (server/main.ts) beside the Next.js build.
  if (run(process.execPath, ["scripts/build-server.mjs"], testEnv) !== 0) process.exit(1);
}

// PostgreSQL (issue 8): when installed, one throw-away cluster for the run. The schema comparison and
// the two-instance test use it; afterwards the integration suite runs again with every test server
// on a fresh PostgreSQL database (TEST_DATABASE=postgres).
let pgCluster;
let failedToStart = 0;
if (!e2eOnly && !testEnv.TEST_PG_URL && findPostgresBin()) {
  try {
    pgCluster = await startPgCluster();
    testEnv.TEST_PG_URL = pgCluster.url;
  } catch (err) {
    console.error(`PostgreSQL cluster did not start (${err.message}): counted as a failure.`);
    failedToStart = 1;
  }
}

let passed = 0;
let failed = failedToStart;
let skipped = 0;
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);

if (!e2eOnly) {
  const out = path.join(root, ".tmp", "vitest-results.json");
  rmSync(out, { force: true });
  const code = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`]);
  const r = readJson(out);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0);
    skipped += r.numPendingTests + r.numTodoTests;
  } else failed += 1;
}

if (!e2eOnly && testEnv.TEST_PG_URL) {
  console.log("\nIntegration suite on PostgreSQL");
  const out = path.join(root, ".tmp", "vitest-postgres-results.json");
  rmSync(out, { force: true });
  const code = run(process.execPath, ["scripts/postgres-schema.mjs", "--client"]) ||
    run(bin("vitest"), ["run", "test/integration", "--exclude", "test/integration/bench-smoke.test.ts", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`],
      { ...testEnv, TEST_DATABASE: "postgres" });
  const r = readJson(out);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0);
    skipped += r.numPendingTests + r.numTodoTests;
    console.log(`PostgreSQL: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  } else failed += 1;
} else if (!e2eOnly) console.log("\nPostgreSQL is not installed: the integration suite ran on SQLite only.");
pgCluster?.stop();

const pwOut = path.join(root, ".tmp", "playwright-results.json");
rmSync(pwOut, { force: true });
const pwCode = run(bin("playwright"), ["test"]);
const pw = readJson(pwOut);
if (pw) {
  passed += pw.stats.expected;
  failed += pw.stats.unexpected + pw.stats.flaky + (pwCode !== 0 && pw.stats.unexpected === 0 ? 1 : 0);
  skipped += pw.stats.skipped;
} else failed += 1;

console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
