import { describe, expect, it } from "vitest";
import { dashboardSeries, histogramQuantile } from "./dashboard-series";
import { endpointLabel } from "./endpoint-label";
import { LATENCY_BUCKETS } from "./latency-buckets";
import type { Sample } from "./sampler";

describe("endpointLabel", () => {
  it("names the registry's endpoints, dynamic segments included, and a bounded set for the rest", () => {
    expect(endpointLabel("/token")).toBe("token");
    expect(endpointLabel("/authorize")).toBe("authorization");
    expect(endpointLabel("/authorize/resume/abcDEF_123")).toBe("resume");
    expect(endpointLabel("/authorize/wait/abc")).toBe("mobileWait");
    expect(endpointLabel("/api/auth/callback/oidc")).toBe("playgroundAuth");
    expect(endpointLabel("/register/client-1")).toBe("registrationClient");
    expect(endpointLabel("/metrics")).toBe("metrics");
    expect(endpointLabel("/console/subscribers")).toBe("console");
    expect(endpointLabel("/interaction/abc/code")).toBe("screen");
    expect(endpointLabel("/")).toBe("screen");
    expect(endpointLabel("/_next/static/chunks/x.js")).toBe("static");
    expect(endpointLabel("/wp-admin/../etc/passwd")).toBe("other");
    expect(endpointLabel("/authorize/resume/a/b")).toBe("other");
  });
});

describe("histogramQuantile", () => {
  it("interpolates inside the bucket as Prometheus does, in milliseconds; null without observations", () => {
    const cumulative = LATENCY_BUCKETS.map((le) => (le >= 0.01 ? 10 : 0)).concat(10); // all ten in (5 ms, 10 ms]
    expect(histogramQuantile(0.5, cumulative)).toBe(7.5);
    expect(histogramQuantile(0.95, cumulative)).toBe(9.75);
    expect(histogramQuantile(0.5, LATENCY_BUCKETS.map(() => 0).concat(0))).toBeNull();
  });
});

describe("dashboardSeries", () => {
  const sample = (at: number, ok: number, token: number[]): Sample => ({ at, requests: { "2xx": ok }, latency: { token },
    signIns: {}, tokens: { authorization_code: ok }, codes: {}, throttles: {} });
  it("gives per-minute rates between samples a minute apart", () => {
    const zero = LATENCY_BUCKETS.map(() => 0).concat(0);
    const list = [0, 10, 20, 30, 40, 50, 60].map((s) => sample(s * 1000, s * 2, zero));
    const d = dashboardSeries(list, sample(120_000, 360, zero));
    expect(d.requests.times).toEqual([60_000, 120_000]);
    expect(d.requests.series.find((s) => s.name === "2xx")!.values).toEqual([120, 240]);
    expect(d.requests.series.map((s) => s.name)).toEqual(["2xx", "3xx", "4xx", "5xx"]);
    expect(d.p50.series.find((s) => s.name === "token")!.values).toEqual([null, null]);
  });
});

describe("RequestSeries", () => {
  it("exposes a counter and a cumulative histogram in the text format through a prom-client registry", async () => {
    const { Registry } = await import("prom-client");
    const { RequestSeries } = await import("./request-series");
    const series = new RequestSeries();
    const registry = new Registry();
    registry.registerMetric(series.counter("x_requests_total", "r") as never);
    registry.registerMetric(series.histogram("x_seconds", "s") as never);
    series.record("token", "POST", "2xx", 0.003);
    series.record("token", "POST", "2xx", 0.002);
    series.record("token", "POST", "2xx", 40);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE x_requests_total counter\nx_requests_total{endpoint="token",method="POST",outcome="2xx"} 3');
    expect(text).toContain('x_seconds_bucket{endpoint="token",method="POST",outcome="2xx",le="0.002"} 1');
    expect(text).toContain('x_seconds_bucket{endpoint="token",method="POST",outcome="2xx",le="0.005"} 2');
    expect(text).toContain('x_seconds_bucket{endpoint="token",method="POST",outcome="2xx",le="30"} 2');
    expect(text).toContain('x_seconds_bucket{endpoint="token",method="POST",outcome="2xx",le="+Inf"} 3');
    expect(text).toContain('x_seconds_count{endpoint="token",method="POST",outcome="2xx"} 3');
  });
});
