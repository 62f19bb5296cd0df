// One measured point: `concurrency` workers, each a closed loop of iterations over its own keep-alive
// socket, for `durationMs`. Iterations that finish after the deadline are not counted.
import { createHttpClient } from "./http-client.mjs";
import { newWorkers } from "./scenarios.mjs";
import { Recorder } from "./stats.mjs";
import { treeCpuSeconds, treeMemory } from "./proc-stats.mjs";

const MAX_ERROR_SAMPLES = 5;

/** Runs one point and returns its throughput, latencies, errors and resource use. */
export async function runPoint({ target, scenario, shared, concurrency, durationMs }) {
  const http = createHttpClient(target.origin, { sockets: concurrency, localAddress: scenario.localAddress?.(target) });
  const workers = newWorkers(concurrency);
  const errorSamples = [];
  let errors = 0;
  try {
    for (const w of workers) await scenario.setup?.(http, target, w, shared);
  } catch (err) {
    http.close();
    return { error: `setup failed: ${err.message}`, completed: 0, errors: 1, errorSamples: [err.message] };
  }
  const steps = scenario.steps.map(() => new Recorder());
  const total = new Recorder();
  let completed = 0;

  // The server's CPU: its process tree (every instance's, `target.pids`, for the two behind nginx); beside it the
  // CPU of the processes it relies on (`target.side`: the PostgreSQL server, nginx), each over the same window.
  const pids = target.pids ?? [target.pid];
  const side = Object.entries(target.side ?? {});
  const serverCpuNow = () => pids.reduce((n, pid) => n + treeCpuSeconds(pid), 0);
  await target.beforePoint?.(); // e.g. pg_stat_statements_reset()
  const side0 = side.map(([, pid]) => treeCpuSeconds(pid));
  const cpu0 = serverCpuNow();
  const client0 = process.cpuUsage();
  const start = performance.now();
  const end = start + durationMs;
  await Promise.all(workers.map(async (w) => {
    while (performance.now() < end) {
      const times = [];
      const t0 = performance.now();
      try {
        await scenario.iterate(http, target, w, times, shared);
      } catch (err) {
        errors++;
        if (errorSamples.length < MAX_ERROR_SAMPLES) errorSamples.push(err.message);
        // A broken target fails fast: stop rather than spin.
        if (errors >= 200 && errors > completed) break;
        continue;
      }
      const t1 = performance.now();
      if (t1 > end) break;
      completed++;
      total.add(t1 - t0);
      for (let i = 0; i < times.length; i++) steps[i].add(times[i]);
    }
  }));
  const elapsed = (performance.now() - start) / 1000;
  const window = durationMs / 1000;
  const serverCpu = (serverCpuNow() - cpu0) / elapsed;
  const c = process.cpuUsage(client0);
  const sideCpu = Object.fromEntries(side.map(([name, pid], i) => [name, (treeCpuSeconds(pid) - side0[i]) / elapsed]));
  http.close();
  const afterPoint = await target.afterPoint?.();
  return {
    ...(side.length ? { sideCpu } : {}),
    ...(afterPoint ? { statements: afterPoint.statements } : {}),
    completed, errors, errorSamples,
    rate: completed / window,
    latency: { total: total.summary(), ...Object.fromEntries(scenario.steps.map((s, i) => [s, steps[i].summary()])) },
    serverCpu, // cores (1.0 = one core busy for the whole point)
    clientCpu: (c.user + c.system) / 1e6 / elapsed,
    memory: pids.map((pid) => treeMemory(pid)).reduce((a, m) => ({ peakRss: a.peakRss + m.peakRss, rss: a.rss + m.rss,
      peakRssPerInstance: Math.max(a.peakRssPerInstance, m.peakRss) }), { peakRss: 0, rss: 0, peakRssPerInstance: 0 }),
  };
}
