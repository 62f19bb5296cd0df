#!/usr/bin/env node
// `npm test`: build once, then unit + integration (Vitest, against a running server) and end-to-end
// (Playwright in Debian's Chromium). Prints one closing line: "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { projectRoot as root } from "./env.mjs";

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
}

let passed = 0;
let failed = 0;
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
