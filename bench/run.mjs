#!/usr/bin/env node
// `npm run bench`: this service against node-oidc-provider on the same machine, in the same run, with
// the same load client, beside the physical bound (RS256 signatures/s on one core). See bench/README.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { basicAuth } from "./lib/http-client.mjs";
import { measureDisplays } from "./lib/display-sizes.mjs";
import { runPoint } from "./lib/load.mjs";
import { startNull } from "./lib/null-target.mjs";
import { readOptions } from "./lib/options.mjs";
import { buildOurs, startOurs } from "./lib/ours.mjs";
import { bin, pinSelf, pinned, root, tasksetAvailable } from "./lib/processes.mjs";
import { renderMarkdown } from "./lib/report.mjs";
import { SCENARIOS } from "./lib/scenarios.mjs";
import { spread } from "./lib/stats.mjs";
import { compare, summarizeRepeats } from "./lib/summarize.mjs";
import { checkTargets } from "./lib/targets.mjs";
import { startTheirs } from "./lib/theirs.mjs";
import { processTree, treeMemory } from "./lib/proc-stats.mjs";

const opts = readOptions(process.argv.slice(2));
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const notes = [];
const results = {
  version: 1, startedAt: new Date().toISOString(), command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
  options: opts, machine: machine(), theirsVersion: theirsVersion(), pinning: {}, bound: null, servers: {}, scenarios: {},
  queries: null, displays: null, notes,
};

function machine() {
  const cpus = os.cpus();
  return { cpuModel: cpus[0]?.model ?? "unknown", cores: cpus.length, memoryBytes: os.totalmem(),
    os: `${os.type()} ${os.release()} ${os.arch()}`, node: process.versions.node, loadavgStart: os.loadavg() };
}

function theirsVersion() {
  try {
    return JSON.parse(readFileSync(path.join(root, "node_modules", "oidc-provider", "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/** RS256 signatures/s on the server core (nothing else of ours runs meanwhile). */
function measureBound() {
  const r = spawnSync(...pinned(opts.serverCore, process.execPath, [path.join(root, "bench", "rs256-bound.mjs"), String(opts.boundMs)]),
    { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`RS256 bound failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

/** Every scenario × concurrency × repeat against one target; fills results.scenarios[*].points. */
async function measureTarget(target, { repeats }) {
  target.client.basic = basicAuth(target.client.id, target.client.secret);
  target.refreshClient.basic = basicAuth(target.refreshClient.id, target.refreshClient.secret);
  const shared = Object.fromEntries(opts.scenarios.map((s) => [s, {}]));
  for (const name of opts.scenarios) {
    const scenario = SCENARIOS[name];
    const sc = (results.scenarios[name] ??= { title: scenario.title, unit: scenario.unit, steps: scenario.steps,
      signaturesPerIteration: scenario.signatures, points: opts.concurrency.map((concurrency) => ({ concurrency })) });
    for (const point of sc.points) {
      const c = point.concurrency;
      await runPoint({ target, scenario, shared: shared[name], concurrency: c, durationMs: opts.warmupMs });
      const raw = [];
      for (let i = 0; i < repeats; i++) {
        const r = await runPoint({ target, scenario, shared: shared[name], concurrency: c, durationMs: opts.durationMs });
        raw.push(r);
        log(`${target.name} ${name} c=${c} #${i + 1}: ${r.rate?.toFixed(0) ?? 0} ${scenario.unit}, `
          + `p99 ${r.latency?.total.p99?.toFixed(2) ?? "–"} ms, server ${r.serverCpu?.toFixed(2) ?? "–"} cores, `
          + `client ${r.clientCpu?.toFixed(2) ?? "–"} cores${r.errors ? `, ${r.errors} errors: ${r.errorSamples[0]}` : ""}`);
      }
      point[target.name] = { repeats: raw, summary: summarizeRepeats(raw, scenario.steps) };
    }
  }
  return shared;
}

/** Runs `fn(target)` between start and stop; records the server's peak memory. */
async function withServer(start, fn) {
  const target = await start();
  try {
    await fn(target);
  } finally {
    const mem = treeMemory(target.pid);
    results.servers[target.name] = { label: target.label, origin: target.origin, peakRss: mem.peakRss,
      processes: processTree(target.pid).length, notes: target.notes };
    await target.stop();
  }
}

function countQueries(target) {
  const r = spawnSync(bin("tsx"), ["bench/count-queries.ts"], {
    cwd: root, encoding: "utf8",
    env: { ...target.env, BENCH_CLIENT_ID: target.client.id, BENCH_CLIENT_SECRET: target.client.secret, BENCH_BROWSER_ID: target.browserId },
  });
  if (r.status !== 0) return { error: (r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ") };
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

/** Prisma vs raw prepared statements for the premium info reads (bench/query-cost.ts). */
function readCost(target, accessToken) {
  const r = spawnSync(...pinned(opts.serverCore, bin("tsx"), ["bench/query-cost.ts", accessToken]), {
    cwd: root, encoding: "utf8",
    env: { ...target.env, BENCH_COST_MS: String(opts.quick ? 200 : 1500), BENCH_CLIENT_ID: target.client.id,
      BENCH_CLIENT_SECRET: target.client.secret, BENCH_BROWSER_ID: target.browserId },
  });
  if (r.status !== 0) return { error: (r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ") };
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

async function main() {
  if (opts.build) buildOurs({ distDir: opts.distDir, log });
  if (!existsSync(path.join(root, opts.distDir, "BUILD_ID"))) {
    throw new Error(`no production build in ${opts.distDir}: run without --no-build, or pass --dist-dir`);
  }
  const pinnedClient = opts.clientCore !== null && pinSelf(opts.clientCore);
  results.pinning = {
    taskset: tasksetAvailable(), serverCore: opts.serverCore, clientCore: pinnedClient ? opts.clientCore : null,
    description: pinnedClient
      ? `servers and the RS256 bound on core ${opts.serverCore}, load client on core ${opts.clientCore} (taskset); servers run one after the other`
      : "not pinned (taskset unavailable or --no-pin); servers run one after the other",
  };
  log(results.pinning.description);

  const bounds = [measureBound()];
  log(`RS256 bound: ${bounds[0].joseSignsPerSecond.toFixed(0)} signatures/s on one core`);

  if (opts.servers.includes("ours")) {
    await withServer(() => startOurs({ distDir: opts.distDir, serverCore: opts.serverCore, log, cpuProfDir: opts.cpuProf }), async (t) => {
      t.notes = "the production server (server/main.ts: protocol endpoints lean, the rest through Next.js; production build), SQLite file in WAL mode, LOG_LEVEL=warn; client and subscriber created "
        + "with the admin CLI; the signed-in session and remembered consent are inserted rows (bench/lib/ours.mjs).";
      const shared = await measureTarget(t, { repeats: opts.repeats });
      if (opts.queries && shared.premiuminfo?.accessToken) results.readCost = readCost(t, shared.premiuminfo.accessToken);
      if (opts.displays) {
        try {
          results.displays = await measureDisplays(t);
        } catch (err) {
          results.displays = { error: err.message };
        }
      }
      if (opts.queries) results.queries = countQueries(t);
    });
  }
  if (opts.servers.includes("theirs")) {
    await withServer(() => startTheirs({ serverCore: opts.serverCore, log, cpuProfDir: opts.cpuProf }), async (t) => {
      t.notes = "oidc-provider's in-memory adapter (nothing durable); configuration in bench/oidc-provider-server.mjs.";
      await measureTarget(t, { repeats: opts.repeats });
    });
  }
  if (opts.calibrate) {
    log("measuring the load client's own ceiling against the null server…");
    await withServer(() => startNull({ serverCore: opts.serverCore }), (t) => measureTarget(t, { repeats: 1 }));
  }
  if (!opts.quick) bounds.push(measureBound());

  results.bound = {
    perSecond: spread(bounds.map((b) => b.joseSignsPerSecond)).median, samples: bounds.map((b) => b.joseSignsPerSecond),
    nodeCryptoPerSecond: bounds[0].nodeCryptoSignsPerSecond, method: "jose SignJWT, RS256, 2048-bit KeyObject, one core",
  };
  for (const sc of Object.values(results.scenarios)) {
    for (const p of sc.points) Object.assign(p, compare(p, results.bound.perSecond));
  }
  results.machine.loadavgEnd = os.loadavg();
  results.finishedAt = new Date().toISOString();
  if (results.machine.loadavgStart[0] > 1.5 || results.machine.loadavgEnd[0] > 3) {
    notes.push(`The machine was not quiet (load average ${results.machine.loadavgStart[0].toFixed(2)} at start, `
      + `${results.machine.loadavgEnd[0].toFixed(2)} at end): figures are noisy.`);
  }
  for (const sc of Object.values(results.scenarios)) {
    for (const p of sc.points) {
      for (const who of ["ours", "theirs"]) {
        const cpu = p[who]?.summary.clientCpu?.median;
        if (cpu > 0.9) notes.push(`${sc.title}, concurrency ${p.concurrency}, ${who}: the load client used ${cpu.toFixed(2)} cores: the figure may be client-bound.`);
      }
    }
  }
  const errors = Object.values(results.scenarios).flatMap((sc) => sc.points)
    .reduce((n, p) => n + (p.ours?.summary.errors ?? 0) + (p.theirs?.summary.errors ?? 0) + (p.null?.summary.errors ?? 0), 0);
  results.errors = errors;
  results.targets = checkTargets(results);

  const md = renderMarkdown(results);
  const outDir = path.resolve(root, opts.outDir);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(outDir, "latest.md"), md);
  process.stdout.write(md);
  log(`wrote ${path.relative(root, path.join(outDir, "latest.json"))} and latest.md`);
  if (errors) {
    log(`${errors} request(s) failed: see errorSamples in latest.json`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  log(`failed: ${err.stack ?? err}`);
  process.exitCode = 1;
}).finally(() => setTimeout(() => process.exit(), 100).unref());
