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
import { readdirSync, rmSync } from "node:fs";
import { HEADLINE_SCENARIOS } from "./lib/options.mjs";
import { findPostgresBin, freshPostgresDatabase, readStatements, resetStatements, startBenchPostgres } from "./lib/postgres.mjs";
import { findNginx, startNginx } from "./lib/nginx.mjs";
import { freePort } from "./lib/processes.mjs";
import { measureSide } from "./lib/side-points.mjs";
import { summarizeProfile } from "./profile-summary.mjs";

const opts = readOptions(process.argv.slice(2));
const log = (msg) => process.stderr.write(`[bench] ${msg}\n`);
const notes = [];
const results = {
  version: 1, startedAt: new Date().toISOString(), command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
  options: opts, machine: machine(), theirsVersion: theirsVersion(), pinning: {}, bound: null, servers: {}, scenarios: {},
  queries: null, displays: null, profile: null, workers: null, postgres: null, notes,
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
async function measureTargets(allTargets, { repeats, pointBoundMs, interleaveBound, scenarioNames = opts.scenarios,
  durationMs = opts.durationMs }) {
  for (const target of allTargets) addBasic(target);
  const shared = Object.fromEntries(allTargets.map((t) => [t.name, Object.fromEntries(scenarioNames.map((s) => [s, {}]))]));
  for (const name of scenarioNames) {
    const scenario = SCENARIOS[name];
    // The peer starts every scenario as a fresh process (bench/lib/theirs.mjs: its tokens live in its heap).
    for (const target of allTargets) {
      if (!target.restart || name === scenarioNames[0] || opts.quick) continue; // --quick: 1 s points, no growth to reset
      target.peakRssSeen = Math.max(target.peakRssSeen ?? 0, treeMemory(target.pid).peakRss);
      await target.restart();
    }
    const targets = await scenarioTargets(allTargets, name, scenario);
    if (!targets.length) continue;
    const sc = (results.scenarios[name] ??= { title: scenario.title, unit: scenario.unit, steps: scenario.steps,
      iterationLabel: scenario.iterationLabel, signaturesPerIteration: scenario.signatures,
      points: opts.concurrencyFor(name).map((concurrency) => ({ concurrency })) });
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
          const r = await runPoint({ target, scenario, shared: shared[target.name][name], concurrency: c, durationMs });
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

function addBasic(target) {
  target.client.basic = basicAuth(target.client.id, target.client.secret);
  target.refreshClient.basic = basicAuth(target.refreshClient.id, target.refreshClient.secret);
  for (const c of Object.values(target.algClients ?? {})) c.basic = basicAuth(c.id, c.secret);
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

/** Runs one of the side phases; a failure is reported in the notes and does not lose the rest of the run. */
async function phase(name, fn) {
  try {
    return await fn();
  } catch (err) {
    log(`${name} failed: ${err.stack ?? err}`);
    notes.push(`${name}: failed: ${err.message}`);
    results.phaseErrors = (results.phaseErrors ?? 0) + 1;
    return { error: err.message };
  }
}

/** Stops a target and records its peak memory. */
async function stopAndRecord(target) {
  const mem = treeMemory(target.pid);
  results.servers[target.name] = { label: target.label, origin: target.origin, peakRss: Math.max(mem.peakRss, target.peakRssSeen ?? 0),
    processes: processTree(target.pid).length, notes: target.notes, restarts: target.restarts };
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

const side = (targets, extra = {}) => ({ targets, scenarios: opts.sideScenarios, concurrency: opts.sideConcurrency,
  repeats: opts.repeats, durationMs: opts.durationMs, warmupMs: opts.warmupMs, log, ...extra });

/**
 * A V8 CPU profile of our server under the full flow at the side concurrency (8): a separate instance started with
 * --cpu-prof (its profile covers its whole life: start-up, warm-up and the point), summarised into groups
 * (bench/profile-summary.mjs).
 */
async function profileOurs() {
  const dir = path.join(root, ".tmp", `bench-prof-${process.pid}`);
  const t = await startOurs({ distDir: opts.distDir, serverCore: opts.serverCore, log, cpuProfDir: dir, name: "oursProfiled",
    label: "this service (profiled)" });
  addBasic(t);
  let point;
  try {
    const shared = {};
    await runPoint({ target: t, scenario: SCENARIOS.flow, shared, concurrency: opts.sideConcurrency, durationMs: opts.warmupMs });
    const startUs = Number(process.hrtime.bigint() / 1000n);
    point = await runPoint({ target: t, scenario: SCENARIOS.flow, shared, concurrency: opts.sideConcurrency, durationMs: opts.profileMs });
    t.window = { startUs, endUs: Number(process.hrtime.bigint() / 1000n) };
    log(`profiled flow c=${opts.sideConcurrency}: ${point.rate.toFixed(0)} flows/s, server ${point.serverCpu.toFixed(2)} cores`);
  } finally {
    await t.stop();
  }
  try {
    const file = readdirSync(path.join(dir, "oursProfiled")).find((f) => f.endsWith(".cpuprofile"));
    if (!file) return { error: "the server wrote no .cpuprofile (it did not exit cleanly)" };
    const summary = summarizeProfile(JSON.parse(readFileSync(path.join(dir, "oursProfiled", file), "utf8")), 12, t.window);
    return { concurrency: opts.sideConcurrency, seconds: opts.profileMs / 1000, rate: point.rate, errors: point.errors,
      serverCpuMsPerFlow: point.rate ? (point.serverCpu / point.rate) * 1000 : null, ...summary };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * WORKERS=1 (the main instance: one process on the server core, load client on the client core) against WORKERS=2
 * (a second instance on a fresh SQLite file, on both cores, the load client on both cores too), alternating within
 * every repeat, with a third target between them: WORKERS=1 on both cores (a third instance), which separates what a
 * second process brings from what one process already takes of a second core (libuv's thread pool signs the RSA
 * signatures). A build without the cluster (WORKERS=2 still starts one process) is reported as such, not measured.
 */
async function measureWorkers(one) {
  const both = opts.serverCore === null ? null : `${opts.serverCore},${opts.clientCore}`;
  const two = await startOurs({ distDir: opts.distDir, serverCore: opts.serverCore, log, workers: 2, cores: both,
    name: "ours2w", label: "this service, WORKERS=2" });
  addBasic(two);
  let oneBoth = null;
  try {
    await new Promise((r) => setTimeout(r, 500));
    const processes = processTree(two.pid).length;
    const base = { concurrency: opts.sideConcurrency, processes: { one: processTree(one.pid).length, two: processes },
      pinning: both ? `WORKERS=1: core ${opts.serverCore}, load client on core ${opts.clientCore}; WORKERS=1 on both cores and `
        + `WORKERS=2: cores ${both}, load client on cores ${both}` : "not pinned" };
    // WORKERS=1 is one process; a build that serves on 2 workers has at least 2 (node:cluster: a primary and 2 workers).
    if (processes < 2) {
      const reason = `not a cluster build: WORKERS=2 started ${processes} process (two workers need at least two)`;
      notes.push(`Workers: ${reason}; 1 vs 2 workers not measured.`);
      return { ...base, cluster: false, reason };
    }
    const targets = [one];
    if (both) {
      oneBoth = await startOurs({ distDir: opts.distDir, serverCore: opts.serverCore, log, workers: 1, cores: both,
        name: "ours1wBoth", label: "this service, WORKERS=1 on both cores" });
      addBasic(oneBoth);
      targets.push(oneBoth);
    }
    targets.push(two);
    const points = await measureSide(side(targets, {
      enter: (t) => (both && opts.clientCore !== null ? pinSelf(t === one ? opts.clientCore : both) : null),
    }));
    if (opts.clientCore !== null) pinSelf(opts.clientCore);
    return { ...base, cluster: true, points, peakRss: treeMemory(two.pid).peakRss };
  } finally {
    await oneBoth?.stop();
    await two.stop();
  }
}

/** Our service's figures on PostgreSQL: one instance (server core; the cluster on the client core), then two behind nginx. */
async function measurePostgres() {
  if (!findPostgresBin()) {
    notes.push("PostgreSQL: not measured: PostgreSQL is not installed (no initdb on PATH or under /usr/lib/postgresql).");
    return { skipped: "PostgreSQL is not installed" };
  }
  const cluster = await startBenchPostgres({ core: opts.clientCore, log });
  const out = { version: cluster.version, statementsCounted: cluster.statStatements ? "pg_stat_statements (server side, BEGIN/COMMIT included)" : null };
  const instrument = (t, url, extraSide = {}) => {
    addBasic(t);
    t.side = { postgres: cluster.pid, ...extraSide };
    if (cluster.statStatements) {
      t.beforePoint = () => resetStatements(url);
      t.afterPoint = async () => ({ statements: await readStatements(url) });
    }
    return t;
  };
  try {
    const url1 = await freshPostgresDatabase(cluster, `bench_one_${process.pid}`);
    const single = instrument(await startOurs({ distDir: opts.distDir, serverCore: opts.serverCore, log,
      database: { kind: "postgresql", url: url1 }, name: "oursPg", label: "this service on PostgreSQL" }), url1);
    try {
      out.single = { pinning: opts.serverCore === null ? "not pinned"
        : `our server on core ${opts.serverCore}; PostgreSQL (postmaster and backends) on core ${opts.clientCore} with the load client`,
      points: await measureSide(side([single])), peakRss: treeMemory(single.pid).peakRss };
      // Without pg_stat_statements: the in-process count (bench/count-queries.ts) on this database instead.
      if (!cluster.statStatements && opts.queries) out.single.queries = countQueries(single);
    } finally {
      await single.stop();
    }
    const nginxBin = findNginx();
    if (!nginxBin) {
      out.pair = { skipped: "nginx is not installed" };
      notes.push("PostgreSQL, two instances: not measured: nginx is not installed.");
      return out;
    }
    // Two instances, nginx, PostgreSQL and the load client all on both cores: the scheduler shares them out.
    if (opts.serverCore !== null) {
      spawnSync("taskset", ["-a", "-p", "-c", `${opts.serverCore},${opts.clientCore}`, String(cluster.pid)]);
      pinSelf(`${opts.serverCore},${opts.clientCore}`);
    }
    const url2 = await freshPostgresDatabase(cluster, `bench_two_${process.pid}`);
    const nginxPort = await freePort();
    const issuer = `http://127.0.0.1:${nginxPort}`;
    const common = { distDir: opts.distDir, serverCore: opts.serverCore, log, cores: null, database: { kind: "postgresql", url: url2 }, issuer };
    const a = await startOurs({ ...common, name: "oursPgA", label: "instance A" });
    let b;
    let nginx;
    try {
      b = await startOurs({ ...common, shareWith: a, name: "oursPgB", label: "instance B" });
      nginx = await startNginx({ bin: nginxBin, port: nginxPort, upstreams: [a, b].map((t) => Number(new URL(t.origin).port)) });
      const pair = instrument({ ...a, name: "oursPgPair", label: "two instances behind nginx", origin: nginx.url, pid: a.pid,
        pids: [a.pid, b.pid] }, url2, { nginx: nginx.pid });
      out.pair = { pinning: "not pinned: both instances, nginx (1 worker process), PostgreSQL and the load client share both cores",
        nginx: `${nginx.version}, round robin, keepalive ${nginx.keepalive} to the upstreams`,
        points: await measureSide(side([pair])), peakRssPerInstance: Math.max(treeMemory(a.pid).peakRss, treeMemory(b.pid).peakRss) };
    } finally {
      await nginx?.stop();
      await b?.stop();
      await a.stop();
      if (opts.clientCore !== null) pinSelf(opts.clientCore);
    }
    return out;
  } finally {
    cluster.stop();
  }
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
      const t = await startOurs({ distDir: opts.distDir, serverCore: opts.serverCore, log, cpuProfDir: opts.cpuProf,
        extraAlgs: opts.scenarios.map((n) => SCENARIOS[n].alg).filter(Boolean) });
      t.notes = "the production server (server/main.ts: protocol endpoints lean, the rest through Next.js; production build), SQLite file in WAL mode, LOG_LEVEL=warn; client and subscriber created "
        + "with the admin CLI; the signed-in session and remembered consent are inserted rows (bench/lib/ours.mjs).";
      targets.push(t);
    }
    if (opts.servers.includes("theirs")) {
      const t = await startTheirs({ serverCore: opts.serverCore, log, cpuProfDir: opts.cpuProf, adapter: "fast" });
      t.notes = "the peer: an O(1) in-memory adapter (a Map per model, a Set of ids per grant; nothing durable), a fresh "
        + "process for every scenario; configuration in bench/oidc-provider-server.mjs.";
      targets.push(t);
    }
    if (opts.servers.includes("theirsDefault")) {
      const t = await startTheirs({ serverCore: opts.serverCore, log, cpuProfDir: opts.cpuProf, adapter: "default" });
      t.notes = "the library's default MemoryAdapter (an LRU of 1000 entries that walks a grant's tokens on every save), "
        + "a fresh process for every scenario; for comparison with earlier reports only.";
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
      if (opts.profile) results.profile = await phase("profile", profileOurs);
      if (opts.workers) results.workers = await phase("workers", () => measureWorkers(ours));
    }
  } finally {
    for (const target of targets) await stopAndRecord(target);
  }
  if (opts.postgres && opts.servers.includes("ours")) results.postgres = await phase("postgres", measurePostgres);
  if (opts.calibrate) {
    log("measuring the load client's own ceiling against the null server…");
    const t = await startNull({ serverCore: opts.serverCore });
    try {
      // Half-length points: the ceiling is a bound, not a figure to compare.
      await measureTargets([t], { repeats: 1, interleaveBound: false, durationMs: Math.min(opts.durationMs, Math.max(1000, opts.durationMs / 2)),
        scenarioNames: opts.scenarios.filter((n) => [...HEADLINE_SCENARIOS, "metadata", "jwks"].includes(n)) });
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
      for (const who of ["ours", "theirs", "theirsDefault"]) {
        const cpu = p[who]?.summary.clientCpu?.median;
        if (cpu > 0.9) notes.push(`${sc.title}, concurrency ${p.concurrency}, ${who}: the load client used ${cpu.toFixed(2)} cores: the figure may be client-bound.`);
      }
    }
  }
  const errors = Object.values(results.scenarios).flatMap((sc) => sc.points)
    .reduce((n, p) => n + (p.ours?.summary.errors ?? 0) + (p.theirs?.summary.errors ?? 0) + (p.theirsDefault?.summary.errors ?? 0)
      + (p.null?.summary.errors ?? 0), 0)
    + sidePoints(results).reduce((n, p) => n + Object.values(p).reduce((m, x) => m + (x?.summary?.errors ?? 0), 0), 0)
    + (results.profile?.errors ?? 0);
  results.errors = errors;
  results.targets = checkTargets(results);

  const md = renderMarkdown(results);
  const outDir = path.resolve(root, opts.outDir);
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(path.join(outDir, "latest.md"), md);
  process.stdout.write(md);
  log(`wrote ${path.relative(root, path.join(outDir, "latest.json"))} and latest.md`);
  if (results.phaseErrors) process.exitCode = 1;
  if (errors) {
    log(`${errors} request(s) failed: see errorSamples in latest.json`);
    process.exitCode = 1;
  }
}

function sidePoints(r) {
  return [r.workers?.points, r.postgres?.single?.points, r.postgres?.pair?.points].flatMap((x) => Object.values(x ?? {}));
}

main().catch((err) => {
  log(`failed: ${err.stack ?? err}`);
  process.exitCode = 1;
}).finally(() => setTimeout(() => process.exit(), 100).unref());
