// Issue 23's targets (issue 9's before them), checked against a run's figures (met / missed / not measured). All at
// concurrency 8, one core each, the peer being node-oidc-provider with the O(1) in-memory adapter ("theirs").
const TARGET_CONCURRENCY = 8;

function at(results, scenario, concurrency = TARGET_CONCURRENCY) {
  return results.scenarios[scenario]?.points.find((p) => p.concurrency === concurrency);
}

const range = (r, f = (x) => x.toFixed(2)) => (r ? ` (${f(r[0])}–${f(r[1])})` : "");
const cpu = (p) => {
  const o = p?.ours?.summary.serverCpuMsPerIteration?.median;
  const t = p?.theirs?.summary.serverCpuMsPerIteration?.median;
  return o || t ? `; server CPU ${o?.toFixed(2) ?? "–"} vs ${t?.toFixed(2) ?? "–"} ms` : "";
};

/** One line per target: what was asked, what was measured, and whether it is met. */
export function checkTargets(results) {
  const out = [];
  const add = (target, measured, ok) => out.push({ target, measured, status: ok === null ? "not measured" : ok ? "met" : "missed" });
  const ratio = (p, unitPer) => (p?.ratio ? `${p.ratio.toFixed(2)}×${range(p.ratioRange)} (medians ${Math.round(p.ours.summary.rate.median)} vs `
    + `${Math.round(p.theirs.summary.rate.median)}/s${cpu(p)} per ${unitPer})` : "–");
  const flow = at(results, "flow");
  add("full flows/s ≥ 2.0× the peer", ratio(flow, "flow"), flow?.ratio ? flow.ratio >= 2.0 : null);
  const frac = flow?.fractionOfBound?.ours;
  add("full flows/s ≥ 50 % of the one-core RS256 bound",
    frac ? `${(frac * 100).toFixed(1)} %${range(flow.fractionOfBoundRange?.ours, (x) => (x * 100).toFixed(1))} (each repeat's flows/s ÷ `
      + `the mean of the bound sampled just before and after it; run median ${Math.round(results.bound.perSecond)}/s)` : "–",
    frac ? frac >= 0.5 : null);
  const p99 = flow?.ours?.summary.latency.total.p99;
  add("full flow p99 ≤ 12 ms", p99?.median ? `${p99.median.toFixed(2)} ms${range([p99.min, p99.max])}` : "–", p99?.median ? p99.median <= 12 : null);
  const rf = at(results, "refresh");
  add("refresh grants/s ≥ 1.5× the peer", ratio(rf, "grant"), rf?.ratio ? rf.ratio >= 1.5 : null);
  const pi = at(results, "premiuminfo");
  add("premium info req/s ≥ 2.5× the peer's userinfo", ratio(pi, "request"), pi?.ratio ? pi.ratio >= 2.5 : null);
  const wap = results.displays?.wap;
  add("WAP sign-in page ≤ 8 KB transferred (HTML + scripts + stylesheets), no script (issue 9)",
    wap ? `${(wap.totalTransferred / 1024).toFixed(1)} KB, ${wap.hasScript ? `${wap.scriptTags} <script> tags` : "no script"}` : "–",
    wap ? wap.totalTransferred <= 8192 && !wap.hasScript : null);
  return out;
}
