// Preloaded into the server by bench/ciba-held.mjs (`--expose-gc --import bench/lib/heap-probe.mjs`): on SIGUSR2
// it runs a full garbage collection and writes process.memoryUsage() and V8's heap statistics to HEAP_PROBE_FILE.
// Nothing runs between signals: no timer, no listener but the signal handler, so an idle server stays idle.
import { writeFileSync } from "node:fs";
import v8 from "node:v8";

const file = process.env.HEAP_PROBE_FILE;
if (file) {
  let seq = 0;
  process.on("SIGUSR2", () => {
    const beforeGc = process.memoryUsage();
    globalThis.gc?.();
    const m = process.memoryUsage();
    const h = v8.getHeapStatistics();
    writeFileSync(file, JSON.stringify({
      seq: ++seq, at: Date.now(), gcRan: typeof globalThis.gc === "function",
      beforeGc: { rss: beforeGc.rss, heapUsed: beforeGc.heapUsed },
      rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers,
      totalHeapSize: h.total_heap_size, usedHeapSize: h.used_heap_size, mallocedMemory: h.malloced_memory,
    }));
  });
}
