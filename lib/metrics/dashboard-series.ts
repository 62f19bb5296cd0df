import { LATENCY_BUCKETS } from "./latency-buckets";
import { MAIN_ENDPOINTS } from "./endpoint-label";
import type { Sample } from "./sampler";

/** One chart's data: the x positions (ms since the epoch, each the end of an interval) and named series. */
export interface ChartData {
  times: number[];
  /** A value per time; null: nothing to show then (no request in the interval, for a latency). */
  series: Array<{ name: string; values: Array<number | null> }>;
}

/** The dashboard's charts, from the sampler's ring buffer (lib/metrics/sampler.ts). */
export interface Dashboard {
  requests: ChartData;
  p50: ChartData;
  p95: ChartData;
  signIns: ChartData;
  tokens: ChartData;
  codes: ChartData;
  throttles: ChartData;
}

/** Points at least this far apart: the charts show rates per minute. */
const STEP_MS = 60_000;

/**
 * Per-minute rates and latency quantiles between samples about a minute apart, newest last: `list` is the stored
 * samples, oldest first, `now` a fresh one (so the figures end at the page's render).
 */
export function dashboardSeries(list: Sample[], now: Sample): Dashboard {
  const points: Sample[] = [now];
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.at <= points[0]!.at - STEP_MS + 1000) points.unshift(list[i]!);
  if (points.length === 1 && list.length && list[0]!.at < now.at) points.unshift(list[0]!);
  const pairs = points.slice(1).map((p, i) => [points[i]!, p] as const);
  const times = pairs.map(([, b]) => b.at);
  const rate = (pick: (s: Sample) => Record<string, number>, order: readonly string[] = []) => {
    const names = [...new Set([...order, ...points.flatMap((p) => Object.keys(pick(p)))])];
    return { times, series: names.map((name) => ({ name, values: pairs.map(([a, b]) =>
      round(((pick(b)[name] ?? 0) - (pick(a)[name] ?? 0)) / ((b.at - a.at) / 60_000))) })) };
  };
  const quantile = (q: number): ChartData => ({ times, series: MAIN_ENDPOINTS.map((name) => ({ name,
    values: pairs.map(([a, b]) => histogramQuantile(q, delta(b.latency[name], a.latency[name]))) })) });
  return {
    requests: rate((s) => s.requests, ["2xx", "3xx", "4xx", "5xx"]),
    p50: quantile(0.5),
    p95: quantile(0.95),
    signIns: rate((s) => s.signIns, ["success", "failure", "locked"]),
    tokens: rate((s) => s.tokens),
    codes: rate((s) => s.codes),
    throttles: rate((s) => s.throttles),
  };
}

const round = (x: number) => Math.round(x * 100) / 100;

function delta(b: number[] | undefined, a: number[] | undefined): number[] {
  if (!b) return [];
  return b.map((n, i) => n - (a?.[i] ?? 0));
}

/**
 * The q-quantile in milliseconds of cumulative bucket counts (LATENCY_BUCKETS, then +Inf), interpolated linearly
 * inside the bucket as Prometheus's histogram_quantile does; null without observations.
 */
export function histogramQuantile(q: number, cumulative: number[]): number | null {
  const total = cumulative.at(-1) ?? 0;
  if (!(total > 0)) return null;
  const rank = q * total;
  for (let i = 0; i < cumulative.length; i++) {
    if (cumulative[i]! < rank) continue;
    const upper = LATENCY_BUCKETS[i] ?? LATENCY_BUCKETS.at(-1)!;
    if (i >= LATENCY_BUCKETS.length) return round(upper * 1000);
    const lower = i === 0 ? 0 : LATENCY_BUCKETS[i - 1]!;
    const below = i === 0 ? 0 : cumulative[i - 1]!;
    const inBucket = cumulative[i]! - below;
    return round((lower + (upper - lower) * (inBucket > 0 ? (rank - below) / inBucket : 1)) * 1000);
  }
  return null;
}
