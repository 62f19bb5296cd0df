import type http from "node:http";
import type { Counter, Histogram } from "prom-client";
import { endpointLabel } from "./endpoint-label";
import { metrics } from "./registry";

type Labels = "endpoint" | "method" | "outcome";
interface Series { count: ReturnType<Counter<Labels>["labels"]>; time: ReturnType<Histogram<Labels>["labels"]> }

const METHODS = new Set(["GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"]);
const CLASSES = ["1xx", "1xx", "2xx", "3xx", "4xx", "5xx"];

/**
 * Request metrics of server/main.ts (every request, the lean path and Next.js alike): `ois_http_requests_total` and
 * `ois_http_request_duration_seconds` by endpoint (lib/metrics/endpoint-label.ts), method and outcome (status class,
 * `aborted` when the connection closed before the response ended), measured from here to the response's `close`.
 * In memory only: one listener, one clock read at each end, a cached child per label set. Nothing with METRICS=off.
 */
export function countRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
  const m = metrics();
  if (!m) return;
  const start = process.hrtime.bigint();
  res.once("close", () => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const method = req.method && METHODS.has(req.method) ? req.method : "other";
    const outcome = res.writableFinished ? CLASSES[(res.statusCode / 100) | 0] ?? "5xx" : "aborted";
    const s = series(m.requests, m.latency, endpointLabel(q < 0 ? url : url.slice(0, q)), method, outcome);
    s.count.inc();
    s.time.observe(Number(process.hrtime.bigint() - start) / 1e9);
  });
}

/** The children of one label set, cached (prom-client otherwise hashes the labels on every call). */
function series(count: Counter<Labels>, time: Histogram<Labels>, endpoint: string, method: string, outcome: string): Series {
  const key = `${endpoint} ${method} ${outcome}`;
  let s = CACHE.get(key);
  if (!s) CACHE.set(key, (s = { count: count.labels(endpoint, method, outcome), time: time.labels(endpoint, method, outcome) }));
  return s;
}
const CACHE = new Map<string, Series>();
