/**
 * The cluster primary (WORKERS > 1, server/main.ts): forks the workers, which each run the whole server
 * (server/main.ts's main(): Next.js and the lean endpoints) on the one shared port. node:cluster's default
 * scheduling on Linux: the primary accepts each connection and hands it to the workers in turn (round robin), so
 * a keep-alive connection stays on one worker and new connections spread evenly. The primary serves no request: it
 * restarts a worker that dies, forwards SIGTERM/SIGINT, relays cache invalidations between workers
 * (lib/cluster/broadcast.ts) and merges the workers' metrics for GET /metrics (lib/metrics/cluster-metrics.ts).
 */
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import { isIpcMessage, type IpcMessage } from "../lib/cluster/ipc";
import { COLLECT_TIMEOUT_MS } from "../lib/metrics/cluster-metrics";
import { logger } from "../lib/log";

/** A worker that dies within this long of its start (or before it listens) has failed to start. */
const START_WINDOW_MS = 10_000;
/** Consecutive failed starts of one worker slot after which the primary gives up and stops (exit 1). */
const MAX_START_FAILURES = 5;
/** Restart delay after the n-th consecutive failed start: 0.5 s, 1 s, 2 s, 4 s … at most 30 s. */
const backoffMs = (failures: number) => Math.min(30_000, 250 * 2 ** failures);
/** After SIGTERM/SIGINT, workers still running after this long are killed (each closes in ≤ 3 s itself). */
const STOP_TIMEOUT_MS = 10_000;

type Slot = { n: number; worker: Worker | null; startedAt: number; listening: boolean; failures: number };

export function runPrimary(count: number, where: { host: string; port: number }): void {
  const slots: Slot[] = Array.from({ length: count }, (_, i) => ({ n: i + 1, worker: null, startedAt: 0, listening: false,
    failures: 0 }));
  let stopping = false;
  let announced = false;

  const fork = (slot: Slot) => {
    if (stopping) return;
    slot.startedAt = Date.now();
    slot.listening = false;
    const worker = cluster.fork({ OIS_WORKER: String(slot.n) });
    slot.worker = worker;
    worker.on("listening", () => {
      slot.listening = true;
      if (!announced && slots.every((s) => s.listening)) {
        announced = true;
        logger.info({ url: `http://${where.host}:${where.port}`, workers: count, pid: process.pid,
          workerPids: slots.map((s) => s.worker?.process.pid) }, "operator identity service listening");
      } else if (announced) logger.info({ worker: slot.n, pid: worker.process.pid }, "worker restarted and listening");
    });
    worker.on("message", (m: unknown) => { if (isIpcMessage(m)) onMessage(worker, m); });
    worker.on("exit", (code, signal) => {
      if (slot.worker === worker) slot.worker = null;
      if (stopping) return maybeDone();
      const failedStart = !slot.listening || Date.now() - slot.startedAt < START_WINDOW_MS;
      slot.failures = failedStart ? slot.failures + 1 : 0;
      if (slot.failures >= MAX_START_FAILURES) {
        logger.fatal({ worker: slot.n, exitCode: code, signal, failures: slot.failures },
          `worker ${slot.n} failed to start ${slot.failures} times in a row: giving up, stopping the service`);
        process.exitCode = 1;
        return stop("SIGTERM");
      }
      const delay = slot.failures === 0 ? 0 : backoffMs(slot.failures);
      logger.error({ worker: slot.n, pid: worker.process.pid, exitCode: code, signal, restartInMs: delay },
        `worker ${slot.n} exited unexpectedly: starting a new one`);
      setTimeout(() => fork(slot), delay);
    });
  };

  // Cache invalidations and metrics requests from the workers.
  type Collection = { requester: Worker; requestId: unknown; waiting: Set<number>; results: unknown[][];
    timer: NodeJS.Timeout };
  const collections = new Map<string, Collection>();
  let nextCollection = 0;
  const live = () => slots.flatMap((s) => (s.worker && s.worker.isConnected() ? [s.worker] : []));
  const send = (w: Worker, m: IpcMessage) => { if (w.isConnected()) w.send(m, (err: Error | null) => void err); };

  function onMessage(from: Worker, m: IpcMessage) {
    if (m.ois === "broadcast" && typeof m.topic === "string") {
      for (const w of live()) if (w !== from) send(w, { ois: "broadcast", topic: m.topic, data: m.data });
    } else if (m.ois === "metrics-request") {
      const id = String(++nextCollection);
      const workers = live();
      const c: Collection = { requester: from, requestId: m.id, waiting: new Set(workers.map((w) => w.id)), results: [],
        timer: setTimeout(() => finish(id), COLLECT_TIMEOUT_MS) };
      collections.set(id, c);
      for (const w of workers) send(w, { ois: "metrics-collect", id });
      if (c.waiting.size === 0) finish(id);
    } else if (m.ois === "metrics-collected") {
      const c = collections.get(String(m.id));
      if (!c || !c.waiting.delete(from.id)) return;
      if (Array.isArray(m.metrics)) c.results.push(m.metrics as unknown[]);
      if (c.waiting.size === 0) finish(String(m.id));
    }
  }

  function finish(id: string) {
    const c = collections.get(id);
    if (!c) return;
    collections.delete(id);
    clearTimeout(c.timer);
    if (c.waiting.size > 0) logger.warn({ missing: c.waiting.size }, "metrics: some workers did not answer in time");
    void (async () => {
      try {
        const text = await AggregatorRegistry.aggregate(c.results as never).metrics();
        send(c.requester, { ois: "metrics-result", id: c.requestId, text });
      } catch (err) {
        logger.error({ err }, "metrics: merging the workers' metrics failed");
        send(c.requester, { ois: "metrics-result", id: c.requestId, text: null });
      }
    })();
  }

  // Shutdown: the signal to every worker (each closes its server and exits), then exit once all have.
  let killTimer: NodeJS.Timeout | undefined;
  function stop(signal: NodeJS.Signals) {
    if (!stopping) {
      stopping = true;
      killTimer = setTimeout(() => {
        logger.error("workers still running after the stop timeout: killing them");
        for (const s of slots) s.worker?.process.kill("SIGKILL");
        process.exit(process.exitCode ?? 1);
      }, STOP_TIMEOUT_MS);
      killTimer.unref();
    }
    for (const s of slots) if (s.worker && s.worker.process.exitCode === null) s.worker.process.kill(signal);
    maybeDone();
  }
  function maybeDone() {
    if (slots.some((s) => s.worker)) return;
    clearTimeout(killTimer);
    process.exit(process.exitCode ?? 0);
  }
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  for (const slot of slots) fork(slot);
}
