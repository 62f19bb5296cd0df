#!/usr/bin/env node
// Where the tail of the full flow comes from: `node bench/tail-anatomy.mjs [seconds=15] [concurrency=8]`.
// Our server alone (production bundle in NEXT_DIST_DIR or .next, pinned to core 0, load on core 1),
// the full-flow load of `npm run bench`; every flow's start, end and step times are kept, and the server
// records its GC pauses and event-loop stalls (bench/lib/stall-watch.mjs). Prints the percentiles, how
// the slowest 1 % cluster in time, the step they lose their time in, and how many overlap a GC pause or
// a stall. The environment reaches the server (e.g. SQLITE_CHECKPOINT_INTERVAL_MS, BENCH_NODE_FLAGS).
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { startOurs } from "./lib/ours.mjs";
import { createHttpClient, basicAuth } from "./lib/http-client.mjs";
import { SCENARIOS, newWorkers } from "./lib/scenarios.mjs";
import { pinSelf, root, tasksetAvailable } from "./lib/processes.mjs";
import { spread } from "./lib/stats.mjs";

const seconds = Number(process.argv[2] ?? 15);
const concurrency = Number(process.argv[3] ?? 8);
if (!(seconds > 0) || !(concurrency > 0)) {
  console.error("usage: node bench/tail-anatomy.mjs [seconds] [concurrency]");
  process.exit(2);
}
const watchFile = path.join(root, ".tmp", `stall-watch-${process.pid}.json`);
process.env.STALL_WATCH_FILE = watchFile;
process.env.BENCH_NODE_FLAGS = `--import ${path.join(root, "bench/lib/stall-watch.mjs")} ${process.env.BENCH_NODE_FLAGS ?? ""}`;
const pin = tasksetAvailable();
if (pin) pinSelf(1);
const target = await startOurs({ distDir: process.env.NEXT_DIST_DIR || ".next", serverCore: pin ? 0 : null, log: (m) => console.error(m) });
target.client.basic = basicAuth(target.client.id, target.client.secret);
const flows = []; // [start, end, worker, ...step ms], wall-clock ms
try {
  const http = createHttpClient(target.origin, { sockets: concurrency });
  const workers = newWorkers(concurrency);
  const shared = {};
  for (const w of workers) await SCENARIOS.flow.setup?.(http, target, w, shared);
  const run = (ms, keep) => {
    const end = performance.now() + ms;
    return Promise.all(workers.map(async (w, i) => {
      while (performance.now() < end) {
        const times = [];
        const t0 = performance.now();
        await SCENARIOS.flow.iterate(http, target, w, times, shared);
        if (keep) flows.push([performance.timeOrigin + t0, performance.timeOrigin + performance.now(), i, ...times]);
      }
    }));
  };
  await run(3000, false);
  await run(seconds * 1000, true);
  http.close();
  await new Promise((r) => setTimeout(r, 1200)); // the server writes its record each second
} finally {
  await target.stop();
}
if (!existsSync(watchFile)) throw new Error("the server wrote no GC/stall record");
const { gcs, stalls } = JSON.parse(readFileSync(watchFile, "utf8"));
rmSync(watchFile, { force: true });
console.log(summarise(flows, gcs, stalls));

function summarise(flows, gcs, stalls) {
  const t0 = flows[0][0], t1 = flows.at(-1)[1];
  const lat = flows.map((f) => f[1] - f[0]).sort((a, b) => a - b);
  const q = (p) => lat[Math.ceil(p * lat.length) - 1];
  const inWindow = (e) => e[0] >= t0 && e[0] <= t1;
  const g = gcs.filter(inWindow), s = stalls.filter(inWindow);
  const overlaps = (f, events) => events.some((e) => e[0] + e[1] >= f[0] && e[0] <= f[1]);
  const slow = flows.filter((f) => f[1] - f[0] >= q(0.99)).sort((a, b) => a[0] - b[0]);
  const clusters = [];
  for (const f of slow) {
    const c = clusters.at(-1);
    if (c && f[0] <= c.end) { c.n++; c.end = Math.max(c.end, f[1]); } else clusters.push({ end: f[1], n: 1 });
  }
  const steps = SCENARIOS.flow.steps;
  const stepMedian = steps.map((_, i) => spread(flows.map((f) => f[3 + i])).median);
  const excess = steps.map((_, i) => slow.reduce((sum, f) => sum + f[3 + i] - stepMedian[i], 0) / slow.length);
  const byKind = {};
  for (const [, ms, kind] of g) {
    const k = { 1: "scavenge", 2: "minor mark-sweep", 4: "mark-compact", 8: "incremental", 16: "weak callbacks" }[kind] ?? `kind ${kind}`;
    byKind[k] ??= { count: 0, ms: 0, max: 0 };
    byKind[k].count++; byKind[k].ms += ms; byKind[k].max = Math.max(byKind[k].max, ms);
  }
  const share = (n, of) => `${n} (${((100 * n) / of).toFixed(1)} %)`;
  const f2 = (x) => x.toFixed(2);
  return [
    `${flows.length} full flows in ${f2((t1 - t0) / 1000)} s at concurrency ${concurrency}: ${(flows.length / ((t1 - t0) / 1000)).toFixed(0)}/s`,
    `latency ms: p50 ${f2(q(0.5))}, p90 ${f2(q(0.9))}, p99 ${f2(q(0.99))}, p99.9 ${f2(q(0.999))}, max ${f2(lat.at(-1))}`,
    `slowest 1 %: ${slow.length} flows in ${clusters.length} clusters overlapping in time (largest ${Math.max(...clusters.map((c) => c.n))})`,
    `median step ms: ${steps.map((n, i) => `${n} ${f2(stepMedian[i])}`).join(", ")}; slowest 1 % lose (mean ms over the median): ${steps.map((n, i) => `${n} ${f2(excess[i])}`).join(", ")}`,
    `GC pauses: ${Object.entries(byKind).map(([k, v]) => `${k} ${v.count} × ${f2(v.ms / v.count)} ms (max ${f2(v.max)})`).join("; ") || "none"}`,
    `event-loop stalls over 4 ms: ${s.length}, longest ${s.map((x) => x[1]).sort((a, b) => b - a).slice(0, 5).map(f2).join(", ") || "-"} ms`,
    `of the slowest 1 %: ${share(slow.filter((f) => overlaps(f, g)).length, slow.length)} overlap a GC pause (all flows: ${share(flows.filter((f) => overlaps(f, g)).length, flows.length)}), ` +
      `${share(slow.filter((f) => overlaps(f, s)).length, slow.length)} an event-loop stall (all flows: ${share(flows.filter((f) => overlaps(f, s)).length, flows.length)})`,
  ].join("\n");
}
