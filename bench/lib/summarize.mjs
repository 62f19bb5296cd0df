// Turns raw repeats into the published figures: median and min–max over repeats of throughput, of
// each step's p50/p99 latency, of server and client CPU; ratios ours/theirs; fractions of the bound.
import { spread } from "./stats.mjs";

/** Summary of the repeats of one server at one point. */
export function summarizeRepeats(repeats, steps) {
  const pick = (f) => spread(repeats.map(f));
  const latency = {};
  for (const step of ["total", ...steps]) {
    latency[step] = { p50: pick((r) => r.latency?.[step]?.p50), p99: pick((r) => r.latency?.[step]?.p99) };
  }
  return {
    rate: pick((r) => r.rate),
    latency,
    serverCpu: pick((r) => r.serverCpu),
    // Server CPU milliseconds per iteration: robust to a shared core (it divides out the time the
    // server was not scheduled), the figure to compare on a noisy machine.
    serverCpuMsPerIteration: pick((r) => (r.rate ? (r.serverCpu / r.rate) * 1000 : null)),
    clientCpu: pick((r) => r.clientCpu),
    completed: repeats.reduce((n, r) => n + (r.completed ?? 0), 0),
    errors: repeats.reduce((n, r) => n + (r.errors ?? 0), 0),
    errorSamples: [...new Set(repeats.flatMap((r) => r.errorSamples ?? []))].slice(0, 5),
    peakRss: Math.max(0, ...repeats.map((r) => r.memory?.peakRss ?? 0)),
  };
}

/** Ratio ours/theirs of the medians and each server's fraction of the RS256 bound. */
export function compare(point, boundPerSecond) {
  const o = point.ours?.summary?.rate?.median;
  const t = point.theirs?.summary?.rate?.median;
  return {
    ratio: o && t ? o / t : null,
    fractionOfBound: {
      ours: o && boundPerSecond ? o / boundPerSecond : null,
      theirs: t && boundPerSecond ? t / boundPerSecond : null,
    },
  };
}
