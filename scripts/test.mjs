#!/usr/bin/env node
// `npm test`: build once, then unit + integration (Vitest, against a running server) and end-to-end
// (Playwright in Debian's Chromium). Prints one closing line: "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { projectRoot as root } from "./env.mjs";
import { findPostgresBin, startPgCluster } from "./pg-cluster.mjs";
import { databaseSemanticsFiles } from "../test/database-semantics.mjs";

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
// Wall time of each pass, printed at the end (the notes report them).
const timings = [];
const started = Date.now();
let passStart = Date.now();
function timed(label) {
  timings.push(`${label} ${Math.round((Date.now() - passStart) / 1000)} s`);
  passStart = Date.now();
}
function run(cmd, args, env = testEnv) {
  return spawnSync(cmd, args, { cwd: root, stdio: "inherit", env }).status ?? 1;
}

mkdirSync(path.join(root, ".tmp"), { recursive: true });
if (!skipBuild) {
  if (run(bin("prisma"), ["generate"]) !== 0) process.exit(1);
  // Both clients before any test: the PostgreSQL tests of the first pass (test/scale, test/faults) use it too, and
  // a client generated before a schema change would answer 500s there.
  if (run(process.execPath, ["scripts/postgres-schema.mjs", "--client"]) !== 0) process.exit(1);
  if (run(bin("next"), ["build"], { ...testEnv, NODE_ENV: "production" }) !== 0) {
    console.error("next build failed");
    process.exit(1);
  }
  // The production server bundle (server/main.ts) beside the Next.js build.
  if (run(process.execPath, ["scripts/build-server.mjs"], testEnv) !== 0) process.exit(1);
}
timed("build");

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
// Names of the failed tests, repeated at the end so the last lines of a long log say what broke.
const failures = [];
function noteVitestFailures(label, report) {
  for (const file of report.testResults ?? []) {
    const rel = path.relative(root, file.name);
    for (const t of file.assertionResults ?? []) {
      if (t.status === "failed") failures.push(`${label} ${rel} › ${t.fullName}: ${String(t.failureMessages?.[0] ?? "").split("\n")[0].slice(0, 300)}`);
    }
    if ((file.assertionResults ?? []).length === 0 && file.status === "failed") failures.push(`${label} ${rel}: ${String(file.message ?? "").split("\n")[0].slice(0, 300)}`);
  }
}
function notePlaywrightFailures(suite, parents = []) {
  const trail = suite.title && suite.title !== suite.file ? [...parents, suite.title] : parents;
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      if (t.status === "unexpected" || t.status === "flaky") {
        const err = t.results?.find((r) => r.error)?.error?.message ?? "";
        failures.push(`[playwright] ${spec.file} › ${[...trail, spec.title].join(" › ")} (${t.status}): ${err.split("\n")[0].slice(0, 300)}`);
      }
    }
  }
  for (const child of suite.suites ?? []) notePlaywrightFailures(child, trail);
}

if (!e2eOnly) {
  const out = path.join(root, ".tmp", "vitest-results.json");
  rmSync(out, { force: true });
  const code = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`]);
  const r = readJson(out);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0);
    skipped += r.numPendingTests + r.numTodoTests;
    noteVitestFailures("[vitest sqlite]", r);
    if (code !== 0 && r.numFailedTests === 0) failures.push(`[vitest sqlite] exited ${code} with no failed test (an unhandled error: see above)`);
  } else {
    failed += 1;
    failures.push("[vitest sqlite] wrote no report");
  }
}
if (!e2eOnly) timed("vitest sqlite");

if (!e2eOnly && testEnv.TEST_PG_URL) {
  console.log(`\nThe database project on PostgreSQL (${databaseSemanticsFiles.length} files, test/database-semantics.mjs)`);
  const out = path.join(root, ".tmp", "vitest-postgres-results.json");
  rmSync(out, { force: true });
  const code = run(process.execPath, ["scripts/postgres-schema.mjs", "--client"]) ||
    run(bin("vitest"), ["run", ...databaseSemanticsFiles, "--reporter=default", "--reporter=json", `--outputFile.json=${out}`],
      { ...testEnv, TEST_DATABASE: "postgres" });
  const r = readJson(out);
  if (r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0);
    skipped += r.numPendingTests + r.numTodoTests;
    console.log(`PostgreSQL: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
    noteVitestFailures("[vitest postgres]", r);
    if (code !== 0 && r.numFailedTests === 0) failures.push(`[vitest postgres] exited ${code} with no failed test (an unhandled error: see above)`);
  } else {
    failed += 1;
    failures.push("[vitest postgres] wrote no report");
  }
} else if (!e2eOnly) console.log("\nPostgreSQL is not installed: the database project ran on SQLite only.");
pgCluster?.stop();
if (!e2eOnly && testEnv.TEST_PG_URL) timed("vitest postgres");

const pwOut = path.join(root, ".tmp", "playwright-results.json");
rmSync(pwOut, { force: true });
const pwCode = run(bin("playwright"), ["test"]);
const pw = readJson(pwOut);
if (pw) {
  passed += pw.stats.expected;
  failed += pw.stats.unexpected + pw.stats.flaky + (pwCode !== 0 && pw.stats.unexpected === 0 ? 1 : 0);
  skipped += pw.stats.skipped;
  for (const suite of pw.suites ?? []) notePlaywrightFailures(suite);
  if (pwCode !== 0 && pw.stats.unexpected === 0 && pw.stats.flaky === 0) failures.push(`[playwright] exited ${pwCode} with no failed test (see above)`);
} else {
  failed += 1;
  failures.push("[playwright] wrote no report");
}
timed("playwright");

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);

console.log(`\nWall time: ${timings.join(", ")}; total ${Math.round((Date.now() - started) / 1000)} s`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
