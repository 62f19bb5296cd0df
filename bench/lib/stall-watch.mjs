// Preloaded into our server by bench/tail-anatomy.mjs (`--import`): records every GC pause and every
// event-loop stall over 4 ms with wall-clock times, and writes them to STALL_WATCH_FILE each second.
import { PerformanceObserver, performance } from "node:perf_hooks";
import { writeFileSync } from "node:fs";

const file = process.env.STALL_WATCH_FILE;
const origin = performance.timeOrigin;
const gcs = [];
const stalls = [];
if (file) {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([origin + e.startTime, e.duration, e.detail?.kind ?? 0]);
  }).observe({ entryTypes: ["gc"] });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last > 4) stalls.push([origin + last, now - last]);
    last = now;
  }, 1).unref();
  setInterval(() => writeFileSync(file, JSON.stringify({ gcs, stalls })), 1000).unref();
}
