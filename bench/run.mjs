#!/usr/bin/env node
// `npm run bench`: this service against node-oidc-provider on the same machine, in the same run, with
// the same load client, beside the physical bound (RS256 signatures/s on one core). See bench/README.md.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { basicAuth, createHttpClient } from "./lib/http-client.mjs";
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

/** RS256 signatures/s on the server core (the servers are idle meanwhile). */
function measureBound(ms = opts.boundMs) {
  const r = spawnSync(...pinned(opts.serverCore, process.execPath, [path.join(root, "bench", "rs256-bound.mjs"), String(ms)]),
    { cwd: root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`RS256 bound failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

/**
 * Every scenario × concurrency × repeat against every target, interleaved: each repeat is a short
 * RS256 bound sample, then one run against each target in turn (the others idle on the same core),
 * then another bound sample; the repeat's bound is the mean of the two.
 * This machine's speed drifts by up to 2× over minutes (a shared host), so ratios are taken within
 * a repeat (ours ÷ theirs, ours ÷ that repeat's bound) and their median published; a whole-run
 * median of each side would compare figures measured minutes apart. Fills results.scenarios.
 */
async function measureTargets(allTargets, { repeats, pointBoundMs, interleaveBound }) {
  for (const target of allTargets) {
    target.client.basic = basicAuth(target.client.id, target.client.secret);
    target.refreshClient.basic = basicAuth(target.refreshClient.id, target.refreshClient.secret);
  }
  const shared = Object.fromEntries(allTargets.map((t) => [t.name, Object.fromEntries(opts.scenarios.map((s) => [s, {}]))]));
  for (const name of opts.scenarios) {
    const scenario = SCENARIOS[name];
    const targets = await scenarioTargets(allTargets, name, scenario);
    if (!targets.length) continue;
    const sc = (results.scenarios[name] ??= { title: scenario.title, unit: scenario.unit, steps: scenario.steps,
      iterationLabel: scenario.iterationLabel, signaturesPerIteration: scenario.signatures,
      points: opts.concurrency.map((concurrency) => ({ concurrency })) });
    for (const point of sc.points) {
      const c = point.concurrency;
      for (const target of targets) {
        await runPoint({ target, scenario, shared: shared[target.name][name], concurrency: c, durationMs: opts.warmupMs });
      }
      const raw = Object.fromEntries(targets.map((t) => [t.name, []]));
      if (interleaveBound) {
        point.bounds = [];
        point.boundSamples = [];
      }
      for (let i = 0; i < repeats; i++) {
        if (interleaveBound) point.bounds.push(measureBound(pointBoundMs).joseSignsPerSecond);
        for (const target of targets) {
          const r = await runPoint({ target, scenario, shared: shared[target.name][name], concurrency: c, durationMs: opts.durationMs });
          raw[target.name].push(r);
          log(`${target.name} ${name} c=${c} #${i + 1}: ${r.rate?.toFixed(0) ?? 0} ${scenario.unit}, `
            + `p99 ${r.latency?.total.p99?.toFixed(2) ?? "–"} ms, server ${r.serverCpu?.toFixed(2) ?? "–"} cores, `
            + `client ${r.clientCpu?.toFixed(2) ?? "–"} cores${r.errors ? `, ${r.errors} errors: ${r.errorSamples[0]}` : ""}`
            + `${interleaveBound && target === targets[0] ? ` (bound before ${point.bounds.at(-1).toFixed(0)}/s)` : ""}`);
        }
        if (interleaveBound) {
          // The repeat's bound: the mean of a sample just before and one just after it, so a drift of
          // the machine's speed during the repeat moves the bound with it.
          const before = point.bounds.at(-1);
          const after = measureBound(pointBoundMs).joseSignsPerSecond;
          point.boundSamples.push([before, after]);
          point.bounds[point.bounds.length - 1] = (before + after) / 2;
          log(`bound after ${after.toFixed(0)}/s: repeat's bound ${point.bounds.at(-1).toFixed(0)}/s`);
        }
      }
      for (const target of targets) point[target.name] = { repeats: raw[target.name], summary: summarizeRepeats(raw[target.name], scenario.steps) };
    }
  }
  return shared;
}

/**
 * The targets a scenario runs against: `oursOnly` scenarios (Number Verification: node-oidc-provider has no such
 * API) only ours; a scenario with a `probe` only where one untimed iteration succeeds; a target left out for a
 * failed probe is named in the report's notes (not measured, not an error).
 */
async function scenarioTargets(allTargets, name, scenario) {
  const out = [];
  for (const target of allTargets) {
    if (scenario.oursOnly && target.name !== "ours") continue;
    if (scenario.probe) {
      const http = createHttpClient(target.origin, { sockets: 1, localAddress: scenario.localAddress?.(target) });
      try {
        await scenario.probe(http, target);
      } catch (err) {
        notes.push(`${scenario.title}: not measured on ${target.label}: ${err.message}`);
        log(`${name}: not measured on ${target.name}: ${err.message}`);
        continue;
      } finally {
        http.close();
      }
    }
    out.push(target);
  }
  return out;
}

/** Stops a target and records its peak memory. */
async function stopAndRecord(target) {
  const mem = treeMemory(target.pid);
  results.servers[target.name] = { label: target.label, origin: target.origin, peakRss: mem.peakRss,
    processes: processTree(target.pid).length, notes: target.notes };
  await target.stop();
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
      ? `servers and the RS256 bound on core ${opts.serverCore}, load client on core ${opts.clientCore} (taskset); both servers run side by side, each idle while the other is measured; every repeat is a bound sample, then ours, then theirs, then a bound sample`
      : "not pinned (taskset unavailable or --no-pin); both servers run side by side, each idle while the other is measured; every repeat is a bound sample, then ours, then theirs, then a bound sample",
  };
  log(results.pinning.description);

  const bounds = [measureBound()];
  log(`RS256 bound: ${bounds[0].joseSignsPerSecond.toFixed(0)} signatures/s on one core`);

  // Both servers run side by side on the server core for the whole measurement, each idle while the
  // other is measured (their memory is recorded when they stop).
  const targets = [];
  try {
    if (opts.servers.includes("ours")) {
      const t = await startOurs({ distDir: opts.distDir, serverCore: opts.serverCore, log, cpuProfDir: opts.cpuProf });
      t.notes = "the production server (server/main.ts: protocol endpoints lean, the rest through Next.js; production build), SQLite file in WAL mode, LOG_LEVEL=warn; client and subscriber created "
        + "with the admin CLI; the signed-in session and remembered consent are inserted rows (bench/lib/ours.mjs).";
      targets.push(t);
    }
    if (opts.servers.includes("theirs")) {
      const t = await startTheirs({ serverCore: opts.serverCore, log, cpuProfDir: opts.cpuProf });
      t.notes = "oidc-provider's in-memory adapter (nothing durable); configuration in bench/oidc-provider-server.mjs.";
      targets.push(t);
    }
    const shared = await measureTargets(targets, { repeats: opts.repeats, pointBoundMs: opts.quick ? 200 : 1000, interleaveBound: true });
    const ours = targets.find((t) => t.name === "ours");
    if (ours) {
      const accessToken = shared.ours.premiuminfo?.accessToken;
      if (opts.queries && accessToken) results.readCost = readCost(ours, accessToken);
      if (opts.displays) {
        try {
          results.displays = await measureDisplays(ours);
        } catch (err) {
          results.displays = { error: err.message };
        }
      }
      if (opts.queries) results.queries = countQueries(ours);
    }
  } finally {
    for (const target of targets) await stopAndRecord(target);
  }
  if (opts.calibrate) {
    log("measuring the load client's own ceiling against the null server…");
    const t = await startNull({ serverCore: opts.serverCore });
    try {
      await measureTargets([t], { repeats: 1, interleaveBound: false });
    } finally {
      await stopAndRecord(t);
    }
  }
  if (!opts.quick) bounds.push(measureBound());

  const pointBounds = Object.values(results.scenarios).flatMap((sc) => sc.points.flatMap((p) => (p.boundSamples ?? []).flat()));
  const samples = [...bounds.map((b) => b.joseSignsPerSecond), ...pointBounds];
  results.bound = {
    perSecond: spread(samples).median, min: Math.min(...samples), max: Math.max(...samples), samples,
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
