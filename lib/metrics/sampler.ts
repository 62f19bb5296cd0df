import type { Metrics } from "./registry";
import { MAIN_ENDPOINTS } from "./endpoint-label";

/** One snapshot of the counters the dashboard charts (cumulative values since the process started). */
export interface Sample {
  at: number;
  /** Requests by outcome (status class). */
  requests: Record<string, number>;
  /** Per main endpoint: the latency histogram's cumulative bucket counts (LATENCY_BUCKETS order, then +Inf). */
  latency: Record<string, number[]>;
  signIns: Record<string, number>;
  tokens: Record<string, number>;
  codes: Record<string, number>;
  throttles: Record<string, number>;
}

/** Every 10 s, the last hour: 360 samples. */
export const SAMPLE_EVERY_MS = 10_000;
export const SAMPLES_KEPT = 360;

const KEY = Symbol.for("operator-identity.metrics-samples");

/**
 * The samples of this process (oldest first), for the console's metrics dashboard. Each instance has its own:
 * the fleet's figures are Prometheus's.
 */
export function samples(): Sample[] {
  const g = globalThis as unknown as Record<symbol, Sample[] | undefined>;
  return (g[KEY] ??= []);
}

/** Starts the sampler (once per process, with the registry; the timer is unref'd) and takes the first sample. */
export function startSampler(m: Metrics): void {
  const take = () => void snapshot(m).then((s) => {
    const list = samples();
    list.push(s);
    if (list.length > SAMPLES_KEPT) list.splice(0, list.length - SAMPLES_KEPT);
  }).catch(() => undefined);
  take();
  setInterval(take, SAMPLE_EVERY_MS).unref();
}

/** Takes a sample now (the dashboard adds one at render, so the latest figures show). */
export async function snapshot(m: Metrics, at = Date.now()): Promise<Sample> {
  const [requests, latency, signIns, tokens, codes, throttles] = await Promise.all([
    m.requests.get(), m.latency.get(), m.signIns.get(), m.tokens.get(), m.codes.get(), m.throttles.get()]);
  type Values = Array<{ labels: Record<string, string | number | undefined>; value: number; metricName?: string }>;
  const byLabel = (values: Values, label: string) => {
    const out: Record<string, number> = {};
    for (const v of values) {
      const k = String(v.labels[label] ?? "");
      out[k] = (out[k] ?? 0) + v.value;
    }
    return out;
  };
  const buckets: Record<string, Map<number, number>> = {};
  for (const v of latency.values as Values) {
    if (v.metricName !== "ois_http_request_duration_seconds_bucket") continue;
    const ep = String(v.labels.endpoint);
    if (!(MAIN_ENDPOINTS as readonly string[]).includes(ep)) continue;
    const le = v.labels.le === "+Inf" ? Infinity : Number(v.labels.le);
    const map = (buckets[ep] ??= new Map());
    map.set(le, (map.get(le) ?? 0) + v.value);
  }
  const lat: Record<string, number[]> = {};
  for (const [ep, map] of Object.entries(buckets)) lat[ep] = [...map].sort((a, b) => a[0] - b[0]).map(([, n]) => n);
  return { at, requests: byLabel(requests.values as Values, "outcome"), latency: lat,
    signIns: byLabel(signIns.values as Values, "outcome"), tokens: byLabel(tokens.values as Values, "grant"),
    codes: byLabel(codes.values as Values, "channel"), throttles: byLabel(throttles.values as Values, "limit") };
}
