// The Markdown report printed on stdout and written to latest.md.
import { renderIssue23Sections } from "./report-sections.mjs";
const fmtRate = (s) => (s ? `${Math.round(s.median).toLocaleString("en")} (${Math.round(s.min).toLocaleString("en")}–${Math.round(s.max).toLocaleString("en")})` : "–");
const fmtMs = (s) => (s ? `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})` : "–");
const fmtRatio = (x) => (x === null || x === undefined ? "–" : `${x.toFixed(2)}×`);
const fmtPct = (x) => (x === null || x === undefined ? "–" : `${(x * 100).toFixed(1)} %`);
const fmtCpu = (s) => (s ? `${s.median.toFixed(2)}` : "–");
const mb = (b) => (b ? `${(b / 1048576).toFixed(0)} MB` : "–");
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;

/** Markdown for a results object (see run.mjs for its shape). */
export function renderMarkdown(r) {
  const L = [];
  const m = r.machine;
  L.push(`# Benchmark: this service vs node-oidc-provider ${r.theirsVersion ?? ""}`.trim(), "");
  L.push(`${r.startedAt} · ${m.cpuModel} · ${m.cores} cores · ${(m.memoryBytes / 2 ** 30).toFixed(1)} GB · ${m.os} · Node ${m.node}`);
  L.push(`Load average at start ${m.loadavgStart.map((x) => x.toFixed(2)).join(" ")}, at end ${m.loadavgEnd?.map((x) => x.toFixed(2)).join(" ") ?? "–"}.`);
  L.push(`Pinning: ${r.pinning.description}.`);
  L.push(`Points: ${r.options.durationMs / 1000} s each after ${r.options.warmupMs / 1000} s warm-up, ${r.options.repeats} repeat(s); `
    + `figures are median (min–max) over repeats. Our data: SQLite (WAL, synchronous=NORMAL), durable; theirs (the peer): `
    + `node-oidc-provider with an O(1) in-memory adapter (bench/oidc-provider-server.mjs), nothing durable`
    + `${r.servers.theirsDefault ? "; \"theirs (default adapter)\": the library's default MemoryAdapter" : ""}.`);
  if (r.options.quick) L.push("", "**Quick (smoke) run: figures are indicative only.**");
  const b = r.bound;
  L.push("", `**Physical bound**: ${Math.round(b.perSecond).toLocaleString("en")} RS256 signatures/s on one core (jose SignJWT, `
    + `2048-bit KeyObject, pinned to the server core${b.samples.length > 1 ? `; median of ${b.samples.length} samples, ${Math.round(b.min)}–${Math.round(b.max)}/s: one at the start and end of the run and one before and one after every repeat` : ""}; `
    + `node:crypto alone: ${Math.round(b.nodeCryptoPerSecond).toLocaleString("en")}/s). Full flows and refresh grants sign one id_token each; `
    + `the other scenarios sign nothing, their fraction only gives scale.`);
  L.push("", "Ratios (ours/theirs, ÷ bound) are paired within each repeat (a bound sample, then ours, then theirs, then a bound sample, "
    + "back to back; the repeat's bound is the mean of its two samples) "
    + "and their median over the repeats is shown with its range: this machine's speed drifts over minutes, so "
    + "comparing each side's median over the whole run would mix different machine speeds.");

  if (r.targets?.length) {
    L.push("", "## Targets (issue 23; concurrency 8, one core each, the peer with the O(1) adapter)", "", "| target | measured | status |", "|---|---|---|");
    for (const t of r.targets) L.push(`| ${t.target} | ${t.measured} | ${t.status === "met" ? "met" : `**${t.status}**`} |`);
  }

  for (const [name, sc] of Object.entries(r.scenarios)) {
    L.push("", `## ${sc.title}`, "");
    const dflt = sc.points.some((p) => p.theirsDefault);
    L.push(`| concurrency | ours ${sc.unit} | theirs ${sc.unit} | ours/theirs | ours ÷ bound | theirs ÷ bound | client ceiling | errors ours/theirs |`
      + `${dflt ? " theirs (default adapter) | ours/theirs (default adapter) |" : ""}`);
    L.push(`|---:|---:|---:|---:|---:|---:|---:|---:|${dflt ? "---:|---:|" : ""}`);
    for (const p of sc.points) {
      const range = (r, f) => (r ? ` (${f(r[0])}–${f(r[1])})` : "");
      const pct = (x) => `${(x * 100).toFixed(1)}`;
      L.push(`| ${p.concurrency} | ${fmtRate(p.ours?.summary.rate)} | ${fmtRate(p.theirs?.summary.rate)} | ${fmtRatio(p.ratio)}${range(p.ratioRange, (x) => x.toFixed(2))} | `
        + `${fmtPct(p.fractionOfBound.ours)}${range(p.fractionOfBoundRange?.ours, pct)} | ${fmtPct(p.fractionOfBound.theirs)}${range(p.fractionOfBoundRange?.theirs, pct)} | ${fmtRate(p.null?.summary.rate)} | `
        + `${p.ours?.summary.errors ?? "–"}/${p.theirs?.summary.errors ?? "–"} |`
        + `${dflt ? ` ${fmtRate(p.theirsDefault?.summary.rate)} | ${fmtRatio(p.ratioDefault)}${range(p.ratioDefaultRange, (x) => x.toFixed(2))} |` : ""}`);
    }
    const whole = sc.iterationLabel ?? (name.startsWith("flow") ? "flow" : "request");
    L.push("", `Latency in ms, median (min–max) over repeats; "${whole}" is the whole iteration.`, "");
    L.push("| concurrency | step | ours p50 | ours p99 | theirs p50 | theirs p99 |", "|---:|---|---:|---:|---:|---:|");
    for (const p of sc.points) {
      const steps = sc.steps.length > 1 ? ["total", ...sc.steps] : ["total"];
      for (const s of steps) {
        const label = s === "total" ? (sc.iterationLabel ?? (name.startsWith("flow") ? "flow" : sc.steps[0])) : s;
        L.push(`| ${p.concurrency} | ${label} | ${fmtMs(p.ours?.summary.latency[s]?.p50)} | ${fmtMs(p.ours?.summary.latency[s]?.p99)} | `
          + `${fmtMs(p.theirs?.summary.latency[s]?.p50)} | ${fmtMs(p.theirs?.summary.latency[s]?.p99)} |`);
      }
    }
    L.push("", "CPU in cores (1.00 = the pinned core fully busy) and server CPU ms per iteration (robust to a shared core), median over repeats:", "");
    L.push("| concurrency | ours server | theirs server | ours CPU ms/iter | theirs CPU ms/iter | client (ours run) | client (theirs run) |",
      "|---:|---:|---:|---:|---:|---:|---:|");
    for (const p of sc.points) {
      L.push(`| ${p.concurrency} | ${fmtCpu(p.ours?.summary.serverCpu)} | ${fmtCpu(p.theirs?.summary.serverCpu)} | `
        + `${fmtMs(p.ours?.summary.serverCpuMsPerIteration)} | ${fmtMs(p.theirs?.summary.serverCpuMsPerIteration)} | `
        + `${fmtCpu(p.ours?.summary.clientCpu)} | ${fmtCpu(p.theirs?.summary.clientCpu)} |`);
    }
  }

  renderIssue23Sections(r, L);

  L.push("", "## Servers", "");
  for (const s of Object.values(r.servers)) {
    L.push(`- **${s.label}**: peak RSS of the process tree ${mb(s.peakRss)} (VmHWM summed over ${s.processes ?? "?"} process(es)`
      + `${s.restarts ? `; the largest of its ${s.restarts + 1} processes` : ""}). ${s.notes ?? ""}`.trim());
  }
  if (r.queries) {
    L.push("", "## Statements per request (ours)", "");
    if (r.queries.error) L.push(`Not measured: ${r.queries.error}`);
    else {
      L.push(`Full flow: **${r.queries.fullFlow}** SQL statements (authorize ${r.queries.authorize.count}, token ${r.queries.token.count}, `
        + `premium info ${r.queries.premiuminfo.count}); refresh grant ${r.queries.refresh.count}. ${r.queries.method}.`, "");
      for (const k of ["authorize", "token", "premiuminfo", "refresh"]) {
        const sql = (q) => q.replace(/`main`\./g, "").replace(/`/g, "").slice(0, 60);
        L.push(`- ${k}: ${r.queries[k].statements.map((q) => `\`${sql(q)}…\``).join(", ")}`);
      }
    }
  }
  if (r.readCost) {
    L.push("", "## CPU cost of reads and of a whole flow without HTTP (ours, in-process, bench/query-cost.ts)", "");
    if (r.readCost.error) L.push(`Not measured: ${r.readCost.error}`);
    else for (const [k, us] of Object.entries(r.readCost.microseconds)) L.push(`- ${k}: ${us} µs CPU per call`);
  }
  if (r.displays) {
    L.push("", "## Sign-in page weight per display (ours)", "");
    if (r.displays.error) L.push(`Not measured: ${r.displays.error}`);
    else {
      L.push("| display | HTML transferred (decoded) | scripts: count, transferred (decoded) | stylesheets transferred | total transferred | `<script` in HTML |",
        "|---|---:|---:|---:|---:|---|");
      for (const [d, x] of Object.entries(r.displays)) {
        L.push(`| ${d} | ${kb(x.html.transferred)} (${kb(x.html.decoded)}, ${x.html.encoding}) | ${x.scripts.count}, ${kb(x.scripts.transferred)} (${kb(x.scripts.decoded)}) | `
          + `${kb(x.styles.transferred)} | ${kb(x.totalTransferred)} | ${x.hasScript ? `yes (${x.scriptTags})` : "no"} |`);
      }
      L.push("", "Transferred = response head + body as sent (Accept-Encoding: gzip, deflate, br).");
    }
  }
  if (r.notes.length) L.push("", "## Notes", "", ...r.notes.map((n) => `- ${n}`));
  L.push("", `Reproduce: \`${r.command}\``);
  return `${L.join("\n")}\n`;
}
