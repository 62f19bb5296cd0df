// Issue 9's targets, checked against a run's figures (met / missed / not measured).
const TARGET_CONCURRENCY = 8;

function at(results, scenario, concurrency = TARGET_CONCURRENCY) {
  return results.scenarios[scenario]?.points.find((p) => p.concurrency === concurrency);
}

/** One line per target: what was asked, what was measured, and whether it is met. */
export function checkTargets(results) {
  const out = [];
  const add = (target, measured, ok) => out.push({ target, measured, status: ok === null ? "not measured" : ok ? "met" : "missed" });
  const flow = at(results, "flow");
  const ratio = (p) => (p?.ratio ? `${p.ratio.toFixed(2)}× (median of the repeats' ratios; medians ${Math.round(p.ours.summary.rate.median)} vs ${Math.round(p.theirs.summary.rate.median)}/s)` : "–");
  add("full flows/s at c=8 ≥ 1.5× node-oidc-provider", ratio(flow), flow?.ratio ? flow.ratio >= 1.5 : null);
  const frac = flow?.fractionOfBound?.ours;
  add("full flows/s at c=8 ≥ 35 % of the one-core RS256 bound", frac ? `${(frac * 100).toFixed(1)} % (median of each repeat's flows/s ÷ the mean of the bound sampled just before and just after it; run median ${Math.round(results.bound.perSecond)}/s)` : "–",
    frac ? frac >= 0.35 : null);
  const p99 = flow?.ours?.summary.latency.total.p99?.median;
  add("p99 per full flow at c=8 ≤ 15 ms", p99 ? `${p99.toFixed(2)} ms` : "–", p99 ? p99 <= 15 : null);
  const pi = at(results, "premiuminfo");
  add("premium info req/s at c=8 ≥ 1.2× their userinfo", ratio(pi), pi?.ratio ? pi.ratio >= 1.2 : null);
  const rf = at(results, "refresh");
  add("refresh grants/s at c=8 ≥ 1.2× theirs", ratio(rf), rf?.ratio ? rf.ratio >= 1.2 : null);
  const wap = results.displays?.wap;
  add("WAP sign-in page ≤ 8 KB transferred (HTML + scripts + stylesheets), no script",
    wap ? `${(wap.totalTransferred / 1024).toFixed(1)} KB, ${wap.hasScript ? `${wap.scriptTags} <script> tags` : "no script"}` : "–",
    wap ? wap.totalTransferred <= 8192 && !wap.hasScript : null);
  return out;
}
