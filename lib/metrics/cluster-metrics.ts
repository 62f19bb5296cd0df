import { randomUUID } from "node:crypto";
import { onIpc, sendToPrimary, isClusterWorker } from "../cluster/ipc";
import { logger } from "../log";
import { metrics, type Metrics } from "./registry";

/**
 * GET /metrics on a machine of several workers (server/cluster.ts): a scrape lands on one worker, which asks the
 * primary; the primary asks every worker for its metrics as JSON (`getMetricsAsJSON`), merges them with prom-client's
 * AggregatorRegistry (counters and histograms summed; each gauge by its `aggregator`: pool connections summed,
 * database-wide gauges the maximum, event-loop lag averaged, as prom-client declares its own) and answers the text.
 * So one scrape describes the whole machine, whichever worker answered it. With WORKERS=1: this process's registry.
 */
export async function machineMetricsText(m: Metrics): Promise<string> {
  if (!isClusterWorker()) return m.registry.metrics();
  const id = randomUUID();
  const answer = new Promise<string | null>((resolve) => {
    const timer = setTimeout(() => { stop(); resolve(null); }, ASK_TIMEOUT_MS);
    const stop = onIpc("metrics-result", (msg) => {
      if (msg.id !== id) return;
      clearTimeout(timer);
      stop();
      resolve(typeof msg.text === "string" ? msg.text : null);
    });
  });
  if (!sendToPrimary({ ois: "metrics-request", id })) return m.registry.metrics();
  const text = await answer;
  if (text !== null) return text;
  // The primary did not answer (shutting down): this worker's own metrics rather than none.
  logger.warn("metrics: the cluster primary did not answer; this worker's metrics only");
  return m.registry.metrics();
}

/** How long a worker waits for the primary's merged metrics (which waits COLLECT_TIMEOUT_MS for the workers). */
const ASK_TIMEOUT_MS = 5000;
/** How long the primary waits for each worker's metrics before merging those that answered. */
export const COLLECT_TIMEOUT_MS = 3000;

const ANSWERING = Symbol.for("operator-identity.metrics-cluster-answering");

/**
 * In a cluster worker: answers the primary's requests for this process's metrics (once per process, whichever
 * bundle calls it). METRICS=off: an empty list (then no worker serves /metrics anyway).
 */
export function answerClusterMetricsRequests(): void {
  const g = globalThis as unknown as Record<symbol, boolean | undefined>;
  if (!isClusterWorker() || g[ANSWERING]) return;
  g[ANSWERING] = true;
  onIpc("metrics-collect", (msg) => {
    const m = metrics();
    const json = m ? m.registry.getMetricsAsJSON() : Promise.resolve([]);
    void json.then((list) => sendToPrimary({ ois: "metrics-collected", id: msg.id, metrics: list }),
      (err: unknown) => {
        logger.error({ err }, "metrics: collecting this worker's metrics failed");
        sendToPrimary({ ois: "metrics-collected", id: msg.id, metrics: [] });
      });
  });
}
