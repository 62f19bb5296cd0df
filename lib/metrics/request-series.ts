import { LATENCY_BUCKETS } from "./latency-buckets";

type Labels = { endpoint: string; method: string; outcome: string };
interface Entry { labels: Labels; count: number; sum: number; buckets: Float64Array }
interface Value { labels: Record<string, string | number>; value: number; metricName?: string }
/** What prom-client's Registry reads from a metric (`registerMetric` takes any object of this shape). */
export interface CollectedMetric {
  name: string;
  help: string;
  type: "counter" | "histogram";
  aggregator: "sum";
  get(): { name: string; help: string; type: string; aggregator: "sum"; values: Value[] };
  reset(): void;
}

/**
 * The request counter and latency histogram, kept as plain numbers: on each request one Map lookup by a short key
 * and three additions (prom-client's own children validate and hash their labels on every call, about ten times
 * the work). Exposed to prom-client's registry as two metrics (`counter` and `histogram`, the standard text format)
 * built at scrape time.
 */
export class RequestSeries {
  private readonly entries = new Map<string, Entry>();

  record(endpoint: string, method: string, outcome: string, seconds: number): void {
    const key = `${endpoint} ${method} ${outcome}`;
    let e = this.entries.get(key);
    if (!e) {
      e = { labels: { endpoint, method, outcome }, count: 0, sum: 0, buckets: new Float64Array(LATENCY_BUCKETS.length + 1) };
      this.entries.set(key, e);
    }
    e.count++;
    e.sum += seconds;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
    e.buckets[i]!++;
  }

  /** `ois_http_requests_total`. */
  counter(name: string, help: string): CollectedMetric {
    const values = () => [...this.entries.values()].map((e) => ({ labels: { ...e.labels }, value: e.count }));
    return { name, help, type: "counter", aggregator: "sum", reset: () => this.entries.clear(),
      get: () => ({ name, help, type: "counter", aggregator: "sum", values: values() }) };
  }

  /** `ois_http_request_duration_seconds` (`_bucket` cumulative with `le`, `_sum`, `_count`). */
  histogram(name: string, help: string): CollectedMetric {
    const values = () => [...this.entries.values()].flatMap((e): Value[] => {
      let cumulative = 0;
      const buckets = LATENCY_BUCKETS.map((le, i) => {
        cumulative += e.buckets[i]!;
        return { labels: { ...e.labels, le }, value: cumulative, metricName: `${name}_bucket` };
      });
      return [...buckets, { labels: { ...e.labels, le: "+Inf" }, value: e.count, metricName: `${name}_bucket` },
        { labels: { ...e.labels }, value: e.sum, metricName: `${name}_sum` },
        { labels: { ...e.labels }, value: e.count, metricName: `${name}_count` }];
    });
    return { name, help, type: "histogram", aggregator: "sum", reset: () => this.entries.clear(),
      get: () => ({ name, help, type: "histogram", aggregator: "sum", values: values() }) };
  }
}
