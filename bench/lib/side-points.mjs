// The points beside the main comparison (bench/run.mjs): WORKERS=1 against WORKERS=2, and our service on PostgreSQL
// (one instance; two behind nginx). Each is our service only, at one concurrency, its targets interleaved within
// every repeat (so a drift of the shared host hits them alike) with paired ratios where there are two.
import { runPoint } from "./load.mjs";
import { SCENARIOS } from "./scenarios.mjs";
import { spread } from "./stats.mjs";
import { summarizeRepeats } from "./summarize.mjs";

/**
 * Measures `scenarios` against `targets` at `concurrency`: per scenario a warm-up of each target, then `repeats`
 * rounds of one point per target. `enter(target)` runs before each of a target's points (e.g. re-pinning the load
 * client). Returns { [scenario]: { concurrency, [target.name]: { repeats, summary }, ratios, ratio, ratioRange } } where
 * ratios[name] is that target's rate ÷ the first target's, paired within each round (ratio: the last target's).
 */
export async function measureSide({ targets, scenarios, concurrency, repeats, durationMs, warmupMs, log, enter = () => {} }) {
  const out = {};
  for (const name of scenarios) {
    const scenario = SCENARIOS[name];
    const shared = Object.fromEntries(targets.map((t) => [t.name, {}]));
    for (const t of targets) {
      enter(t);
      await runPoint({ target: t, scenario, shared: shared[t.name], concurrency, durationMs: warmupMs });
    }
    const raw = Object.fromEntries(targets.map((t) => [t.name, []]));
    for (let i = 0; i < repeats; i++) {
      for (const t of targets) {
        enter(t);
        const r = await runPoint({ target: t, scenario, shared: shared[t.name], concurrency, durationMs });
        raw[t.name].push(r);
        const side = r.sideCpu ? `, ${Object.entries(r.sideCpu).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(", ")} cores` : "";
        const st = r.statements ? `, ${(r.statements.total / Math.max(1, r.completed)).toFixed(1)} statements/iteration` : "";
        log(`${t.name} ${name} c=${concurrency} #${i + 1}: ${r.rate?.toFixed(0) ?? 0} ${scenario.unit}, p99 `
          + `${r.latency?.total.p99?.toFixed(2) ?? "–"} ms, server ${r.serverCpu?.toFixed(2) ?? "–"} cores${side}${st}, `
          + `client ${r.clientCpu?.toFixed(2) ?? "–"} cores${r.errors ? `, ${r.errors} errors: ${r.errorSamples[0]}` : ""}`);
      }
    }
    const point = { concurrency, title: scenario.title, unit: scenario.unit };
    for (const t of targets) point[t.name] = { repeats: raw[t.name], summary: summarizeRepeats(raw[t.name], scenario.steps) };
    // Each further target's rate ÷ the first's, paired within each round; `ratio` is the last target's.
    point.ratios = {};
    for (const t of targets.slice(1)) {
      const a = raw[targets[0].name];
      const ratios = raw[t.name].map((x, i) => (x.rate && a[i]?.rate ? x.rate / a[i].rate : null)).filter((v) => v);
      if (!ratios.length) continue;
      const s = spread(ratios);
      point.ratios[t.name] = { median: s.median, range: [s.min, s.max] };
      Object.assign(point, { ratio: s.median, ratioRange: [s.min, s.max] });
    }
    out[name] = point;
  }
  return out;
}
