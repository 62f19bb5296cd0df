#!/usr/bin/env node
// A/B of two production builds of this service on this machine: both servers run side by side on
// the server core, and short full-flow points alternate between them (A, B, B, A, ...), so the host's
// drift hits both alike. Prints, per build, the median flows/s and server CPU ms per flow and the
// paired ratios. `node bench/ab.mjs <distDirA> <distDirB> [rounds=6] [seconds=5] [concurrency=8] [scenario=flow]`
// (scenario: flow or flowDpop, bench/lib/scenarios.mjs; the same build twice with BENCH_AB_SCENARIO_B=flowDpop
// runs scenario `flow` on A and `flowDpop` on B: the cost of DPoP per flow).
// BENCH_AB_ENV_A / BENCH_AB_ENV_B ("NAME=value NAME=value") add environment variables to server A / B: the same build
// twice with BENCH_AB_ENV_B=METRICS=off compares metrics on (A) against off (B), bench/README.md.
// Each dist dir needs its server bundle (`NEXT_DIST_DIR=<dir> node scripts/build-server.mjs`), which
// is run as it is (BENCH_KEEP_BUNDLE): build B from the change, A from the commit before it.
import { startOurs } from "./lib/ours.mjs";
import { runPoint } from "./lib/load.mjs";
import { SCENARIOS } from "./lib/scenarios.mjs";
import { pinSelf, tasksetAvailable } from "./lib/processes.mjs";
import { basicAuth } from "./lib/http-client.mjs";

const [distA, distB, roundsArg = "6", secondsArg = "5", cArg = "8", scenarioArg = "flow"] = process.argv.slice(2);
if (!distA || !distB) {
  console.error("usage: node bench/ab.mjs <distDirA> <distDirB> [rounds] [seconds] [concurrency]");
  process.exit(2);
}
process.env.BENCH_KEEP_BUNDLE = "1";
const log = (m) => console.error(`[ab] ${m}`);
const pin = tasksetAvailable();
if (pin) pinSelf(1);
const targets = [];
let names = [distA, distB];
try {
  const envOf = (v) => Object.fromEntries((v ?? "").split(/\s+/).filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf("=")),
    kv.slice(kv.indexOf("=") + 1)]));
  const extra = [envOf(process.env.BENCH_AB_ENV_A), envOf(process.env.BENCH_AB_ENV_B)];
  names = [distA, distB].map((d, i) => `${"AB"[i]} ${d}${Object.keys(extra[i]).length
    ? ` (${process.env[`BENCH_AB_ENV_${"AB"[i]}`]})` : ""}`);
  for (const [i, distDir] of [distA, distB].entries()) {
    targets.push(await startOurs({ distDir, serverCore: pin ? 0 : null, log, extraEnv: extra[i] }));
  }
  for (const t of targets) t.client.basic = basicAuth(t.client.id, t.client.secret);
  const scenarios = [SCENARIOS[scenarioArg], SCENARIOS[process.env.BENCH_AB_SCENARIO_B ?? scenarioArg]];
  if (!scenarios[0] || !scenarios[1]) throw new Error(`unknown scenario ${scenarioArg} / ${process.env.BENCH_AB_SCENARIO_B}`);
  const shared = targets.map(() => ({}));
  const ms = Number(secondsArg) * 1000;
  const c = Number(cArg);
  for (let i = 0; i < 2; i++) await runPoint({ target: targets[i], scenario: scenarios[i], shared: shared[i], concurrency: c, durationMs: 2000 });
  const rows = [[], []];
  for (let r = 0; r < Number(roundsArg); r++) {
    for (const i of r % 2 ? [1, 0] : [0, 1]) {
      const p = await runPoint({ target: targets[i], scenario: scenarios[i], shared: shared[i], concurrency: c, durationMs: ms });
      if (p.errors) throw new Error(`${names[i]}: ${p.errors} errors: ${p.errorSamples?.join("; ")}`);
      rows[i].push({ rate: p.rate, cpuMs: (p.serverCpu * (ms / 1000) * 1000) / p.completed });
      log(`round ${r + 1} ${names[i]}: ${p.rate.toFixed(0)} flows/s, ${rows[i].at(-1).cpuMs.toFixed(2)} ms CPU/flow`);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`load average at end: ${(await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ")}`);
  for (const [i, d] of names.entries()) {
    console.log(`${d}: ${median(rows[i].map((x) => x.rate)).toFixed(0)} flows/s, ${median(rows[i].map((x) => x.cpuMs)).toFixed(3)} ms CPU/flow (medians)`);
  }
  const rate = rows[1].map((b, k) => b.rate / rows[0][k].rate);
  const cpu = rows[1].map((b, k) => b.cpuMs / rows[0][k].cpuMs);
  console.log(`B/A flows/s: median ${median(rate).toFixed(3)} (${Math.min(...rate).toFixed(3)}–${Math.max(...rate).toFixed(3)}); ` +
    `B/A CPU per flow: median ${median(cpu).toFixed(3)} (${Math.min(...cpu).toFixed(3)}–${Math.max(...cpu).toFixed(3)})`);
} finally {
  for (const t of targets) await t.stop();
}
