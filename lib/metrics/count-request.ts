import type http from "node:http";
import { endpointLabel } from "./endpoint-label";
import { metrics } from "./registry";

const METHODS = new Set(["GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"]);
const CLASSES = ["1xx", "1xx", "2xx", "3xx", "4xx", "5xx"];

/**
 * Request metrics of server/main.ts (every request, the lean path and Next.js alike): `ois_http_requests_total` and
 * `ois_http_request_duration_seconds` by endpoint (lib/metrics/endpoint-label.ts), method and outcome (status class,
 * `aborted` when the connection closed before the response ended), measured from here to the response's `close`.
 * In memory only: one listener, a clock read at each end, a few additions (lib/metrics/request-series.ts).
 * Nothing at all with METRICS=off.
 */
export function countRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
  const m = metrics();
  if (!m) return;
  const start = process.hrtime.bigint();
  res.on("close", () => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const method = req.method && METHODS.has(req.method) ? req.method : "other";
    const outcome = res.writableFinished ? CLASSES[(res.statusCode / 100) | 0] ?? "5xx" : "aborted";
    m.http.record(endpointLabel(q < 0 ? url : url.slice(0, q)), method, outcome, Number(process.hrtime.bigint() - start) / 1e9);
  });
}
