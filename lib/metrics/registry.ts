import { statSync } from "node:fs";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import { config } from "../config";
import { dbPools } from "./db-pools";
import { countPendingHandsetRequests } from "./handset-pending";
import { LATENCY_BUCKETS } from "./latency-buckets";
import { RequestSeries, type CollectedMetric } from "./request-series";
import { startSampler } from "./sampler";

export { LATENCY_BUCKETS };

/** The service's metrics (docs/observability.md "Prometheus metrics" lists each one). */
export interface Metrics {
  registry: Registry;
  /** Every request's endpoint, method, outcome and duration (lib/metrics/count-request.ts). */
  http: RequestSeries;
  requests: CollectedMetric;
  latency: CollectedMetric;
  signIns: Counter<"level" | "outcome">;
  codes: Counter<"channel">;
  lockouts: Counter<"kind">;
  throttles: Counter<"limit">;
  tokens: Counter<"grant">;
  notifications: Counter<"kind" | "outcome">;
}

const KEY = Symbol.for("operator-identity.metrics");
type Slot = { value: Metrics | null };

/**
 * The process's metrics, or null with METRICS=off (then nothing anywhere records anything). One registry per
 * process on globalThis: the Next.js bundle and the lean server's bundle each load their own copy of lib/, and
 * prom-client refuses a metric registered twice. Created on first use (the first request), with prom-client's
 * default metrics (`ois_process_*`, `ois_nodejs_*`: memory, CPU, event-loop lag, GC) and the dashboard's sampler.
 */
export function metrics(): Metrics | null {
  const g = globalThis as unknown as Record<symbol, Slot | undefined>;
  const slot = g[KEY];
  if (slot) return slot.value;
  const value = config().METRICS ? create() : null;
  g[KEY] = { value };
  if (value) startSampler(value);
  return value;
}

function create(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: "ois_" });
  const http = new RequestSeries();
  const m: Metrics = {
    registry,
    http,
    requests: http.counter("ois_http_requests_total", "HTTP requests by endpoint, method and status class."),
    latency: http.histogram("ois_http_request_duration_seconds",
      "Time from the request's arrival to the response's end, by endpoint, method and status class."),
    signIns: new Counter({ name: "ois_sign_ins_total", help: "Subscriber sign-ins by level (2, 3, nba) and outcome.",
      labelNames: ["level", "outcome"], registers }),
    codes: new Counter({ name: "ois_codes_sent_total", help: "One-time sign-in codes sent, by messaging channel.",
      labelNames: ["channel"], registers }),
    lockouts: new Counter({ name: "ois_lockouts_total", help: "Lockouts started (pin: a subscriber, staff: a console member).",
      labelNames: ["kind"], registers }),
    throttles: new Counter({ name: "ois_throttles_total", help: "Requests refused by an abuse limit, by the limit's name.",
      labelNames: ["limit"], registers }),
    tokens: new Counter({ name: "ois_tokens_issued_total", help: "Token responses issued, by grant (refresh: refreshed).",
      labelNames: ["grant"], registers }),
    notifications: new Counter({ name: "ois_backchannel_notifications_total",
      help: "Back-channel delivery attempts (ciba_ping, ciba_push, logout) by outcome (delivered, retry, failed).",
      labelNames: ["kind", "outcome"], registers }),
  };
  registry.registerMetric(m.requests as never);
  registry.registerMetric(m.latency as never);
  // Database-wide gauges: every worker reads the same value, so a machine-wide scrape (lib/metrics/cluster-metrics.ts)
  // takes the largest rather than the sum.
  new Gauge({ name: "ois_handset_requests_pending", help: "Handset approval requests pending and not expired (capped at 10000).",
    registers, aggregator: "max", async collect() {
      const n = await countPendingHandsetRequests().catch(() => null);
      if (n !== null) this.set(n);
    } });
  new Gauge({ name: "ois_db_pool_connections", help: "Database pool connections by pool and state (total, idle, waiting).",
    labelNames: ["pool", "state"], registers, collect() {
      this.reset();
      for (const [pool, s] of dbPools()) {
        this.set({ pool, state: "total" }, s.totalCount);
        this.set({ pool, state: "idle" }, s.idleCount);
        this.set({ pool, state: "waiting" }, s.waitingCount);
      }
    } });
  new Gauge({ name: "ois_sqlite_wal_bytes", help: "Size of the SQLite write-ahead log file (absent with PostgreSQL).",
    registers, aggregator: "max", collect() {
      const file = sqliteFile();
      if (!file) return;
      try {
        this.set(statSync(`${file}-wal`).size);
      } catch {
        this.set(0); // no WAL file: checkpointed and removed, or not yet written
      }
    } });
  return m;
}

function sqliteFile(): string | null {
  const url = config().DATABASE_URL;
  if (!url.startsWith("file:")) return null;
  return url.slice(5).split("?")[0] || null;
}
