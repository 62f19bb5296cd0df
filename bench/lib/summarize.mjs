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
    clientCpuMsPerIteration: pick((r) => (r.rate ? (r.clientCpu / r.rate) * 1000 : null)),
    // The processes the server relies on (PostgreSQL, nginx): CPU ms per iteration, each.
    sideCpuMsPerIteration: repeats[0]?.sideCpu ? Object.fromEntries(Object.keys(repeats[0].sideCpu)
      .map((k) => [k, pick((r) => (r.rate ? (r.sideCpu[k] / r.rate) * 1000 : null))])) : undefined,
    // Statements the database server executed per iteration over the point (pg_stat_statements).
    statementsPerIteration: repeats[0]?.statements ? pick((r) => (r.completed ? r.statements.total / r.completed : null)) : undefined,
    statementsByKind: repeats.at(-1)?.statements?.byKind,
    peakRssPerInstance: Math.max(0, ...repeats.map((r) => r.memory?.peakRssPerInstance ?? r.memory?.peakRss ?? 0)),
    completed: repeats.reduce((n, r) => n + (r.completed ?? 0), 0),
    errors: repeats.reduce((n, r) => n + (r.errors ?? 0), 0),
    errorSamples: [...new Set(repeats.flatMap((r) => r.errorSamples ?? []))].slice(0, 5),
    peakRss: Math.max(0, ...repeats.map((r) => r.memory?.peakRss ?? 0)),
  };
}

/**
 * Ratio ours/theirs and each server's fraction of the RS256 bound, paired within each repeat (the
 * repeats interleave bound, ours and theirs: bench/run.mjs), median over the repeats; without
 * per-repeat bounds (or repeats to pair), the ratio of the medians and the run's bound.
 */
export function compare(point, boundPerSecond) {
  const ours = point.ours?.repeats ?? [];
  const theirs = point.theirs?.repeats ?? [];
  const bounds = point.bounds ?? [];
  const paired = (a, b) => {
    const r = a.map((x, i) => (x?.rate && b[i] ? x.rate / (typeof b[i] === "number" ? b[i] : b[i].rate) : null)).filter((v) => v);
    return r.length ? spread(r) : null;
  };
  const ratio = ours.length && ours.length === theirs.length ? paired(ours, theirs) : null;
  const theirsDefault = point.theirsDefault?.repeats ?? [];
  const ratioDefault = ours.length && ours.length === theirsDefault.length ? paired(ours, theirsDefault) : null;
  const oursFrac = bounds.length === ours.length && ours.length ? paired(ours, bounds) : null;
  const theirsFrac = bounds.length === theirs.length && theirs.length ? paired(theirs, bounds) : null;
  const o = point.ours?.summary?.rate?.median;
  const t = point.theirs?.summary?.rate?.median;
  return {
    ratio: ratio?.median ?? (o && t ? o / t : null),
    ratioRange: ratio ? [ratio.min, ratio.max] : null,
    ratioDefault: ratioDefault?.median ?? null,
    ratioDefaultRange: ratioDefault ? [ratioDefault.min, ratioDefault.max] : null,
    fractionOfBound: {
      ours: oursFrac?.median ?? (o && boundPerSecond ? o / boundPerSecond : null),
      theirs: theirsFrac?.median ?? (t && boundPerSecond ? t / boundPerSecond : null),
    },
    fractionOfBoundRange: { ours: oursFrac ? [oursFrac.min, oursFrac.max] : null, theirs: theirsFrac ? [theirsFrac.min, theirsFrac.max] : null },
    pairedWithinRepeats: Boolean(ratio || oursFrac),
  };
}
