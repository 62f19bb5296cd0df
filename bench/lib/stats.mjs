// Latency recording and the summaries the report prints (percentiles, median and range of repeats).

/** Appends samples (milliseconds) to a growable Float64Array. */
export class Recorder {
  constructor() {
    this.values = new Float64Array(4096);
    this.length = 0;
  }
  add(ms) {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = ms;
  }
  /** p50, p90, p99 and max (nearest-rank), in milliseconds. */
  summary() {
    const sorted = this.values.slice(0, this.length).sort();
    const rank = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : null);
    return { count: sorted.length, p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: rank(1) };
  }
}

/** Median, min and max of numbers (nulls ignored); null when none. */
export function spread(values) {
  const v = values.filter((x) => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = v.length >> 1;
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { median, min: v[0], max: v[v.length - 1], n: v.length };
}
