// The report's sections for issue 23 (bench/lib/report.mjs renders the rest): signature algorithms, the profile,
// workers, PostgreSQL, and the sizing derived from them.
const n0 = (x) => (x === null || x === undefined ? "–" : Math.round(x).toLocaleString("en"));
const ms = (s) => (s?.median !== undefined && s?.median !== null ? `${s.median.toFixed(2)} (${s.min.toFixed(2)}–${s.max.toFixed(2)})` : "–");
const rate = (s) => (s ? `${n0(s.median)} (${n0(s.min)}–${n0(s.max)})` : "–");
const mb = (b) => (b ? `${(b / 1048576).toFixed(0)} MB` : "–");
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const C = 8;
const at = (r, name) => r.scenarios[name]?.points.find((p) => p.concurrency === C);
/** The point at concurrency 8, else the highest measured (a run with other concurrencies, e.g. --quick). */
const near = (r, name) => at(r, name) ?? r.scenarios[name]?.points.at(-1);

function algorithms(r, L) {
  const rows = [["RS256", "flow"], ["ES256", "flowEs256"], ["PS256", "flowPs256"], ["EdDSA", "flowEdDsa"]]
    .filter(([, name]) => opted(r, name));
  if (rows.length < 2) return;
  const c = near(r, "flow")?.concurrency ?? C;
  L.push("", `## Signature algorithms: full flow at concurrency ${c}`, "");
  L.push("| id_token alg | ours flows/s | peer flows/s | ours/peer | ours CPU ms/flow | peer CPU ms/flow | p99 ours |",
    "|---|---:|---:|---:|---:|---:|---:|");
  for (const [alg, name] of rows) {
    const p = near(r, name);
    const reason = r.notes.find((x) => x.startsWith(r.scenarios[name]?.title ?? "\0") || x.includes(`--id-token-alg ${alg}`));
    if (!p?.ours) {
      L.push(`| ${alg} | not measured${reason ? `: ${reason.replace(/^[^:]*: not measured on [^:]*: /, "")}` : ""} | ${rate(p?.theirs?.summary.rate)} | – | – | `
        + `${ms(p?.theirs?.summary.serverCpuMsPerIteration)} | – |`);
      continue;
    }
    L.push(`| ${alg} | ${rate(p.ours.summary.rate)} | ${rate(p.theirs?.summary.rate)} | ${p.ratio ? `${p.ratio.toFixed(2)}×` : "–"} | `
      + `${ms(p.ours.summary.serverCpuMsPerIteration)} | ${ms(p.theirs?.summary.serverCpuMsPerIteration)} | ${ms(p.ours.summary.latency.total.p99)} |`);
  }
}
const opted = (r, name) => r.options.scenarios.includes(name);

function profile(r, L) {
  const p = r.profile;
  if (!p) return;
  L.push("", `## Where our server's CPU goes: full flow, concurrency ${p.concurrency ?? C} (V8 profile)`, "");
  if (p.error) {
    L.push(`Not measured: ${p.error}`);
    return;
  }
  L.push(`A separate instance of our server started with \`--cpu-prof\` (SQLite, core as above), ${p.seconds} s of full flows at `
    + `concurrency ${p.concurrency} after the warm-up: ${n0(p.rate)} flows/s, ${p.serverCpuMsPerFlow?.toFixed(2) ?? "–"} ms server CPU `
    + `per flow (profiling slows it). Self time of the main thread, grouped (bench/profile-summary.mjs). The RSA signature runs on libuv's thread pool (WebCrypto), not on the main `
    + `thread: it is in the server CPU per flow but mostly not in this profile. ${p.windowed ? "Only the samples of the measured point "
      + "are counted" : "The whole profile is counted (start-up and warm-up included: its clock did not match the harness's)"}. `
    + `Main thread busy ${(p.busyUs / 1e6).toFixed(2)} s, idle `
    + `${(p.idleUs / 1e6).toFixed(2)} s.`, "");
  L.push("| group | share of main-thread busy time |", "|---|---:|");
  for (const g of p.groups) L.push(`| ${g.name} | ${pct(g.share)} |`);
  L.push("", "Top areas (package or source file, self time): "
    + p.areas.slice(0, 10).map((a) => `${a.name} ${pct(a.share)}`).join(" · "));
  L.push("", "Top functions (self time): " + p.functions.slice(0, 8).map((f) => `\`${f.name}\` ${pct(f.share)}`).join(" · "));
}

function workers(r, L) {
  const w = r.workers;
  if (!w) return;
  L.push("", `## Workers: WORKERS=1 and WORKERS=2 (SQLite, concurrency ${w.concurrency ?? C})`, "");
  if (w.error) return void L.push(`Not measured: ${w.error}`);
  L.push(`Pinning: ${w.pinning}. Processes in the server's tree: ${w.processes.one} with WORKERS=1, ${w.processes.two} with WORKERS=2.`);
  if (!w.cluster) return void L.push("", `Not measured: ${w.reason}. No scaling factor is reported.`);
  L.push("", "| scenario | WORKERS=1 (1 core) | WORKERS=1 (2 cores) | WORKERS=2 (2 cores) | 2w/1w (paired) | 2w ÷ 1w on 2 cores | "
    + "server CPU ms/op 1w / 2w | client cores 1w / 2w | p99 ms 1w / 2w |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  const f = (x) => (x ? `${x.median.toFixed(2)}× (${x.range.map((v) => v.toFixed(2)).join("–")})` : "–");
  for (const [name, p] of Object.entries(w.points)) {
    const a = p.ours?.summary;
    const m = p.ours1wBoth?.summary;
    const b = p.ours2w?.summary;
    const r2 = p.ratios?.ours2w;
    const rm = p.ratios?.ours1wBoth;
    const within = r2 && rm ? { median: r2.median / rm.median, range: [r2.range[0] / rm.range[1], r2.range[1] / rm.range[0]] } : null;
    L.push(`| ${name} (${p.unit}) | ${rate(a?.rate)} | ${rate(m?.rate)} | ${rate(b?.rate)} | ${f(r2)} | `
      + `${within ? `${within.median.toFixed(2)}×` : "–"} | `
      + `${a?.serverCpuMsPerIteration?.median?.toFixed(2) ?? "–"} / ${b?.serverCpuMsPerIteration?.median?.toFixed(2) ?? "–"} | `
      + `${a?.clientCpu?.median?.toFixed(2) ?? "–"} / ${b?.clientCpu?.median?.toFixed(2) ?? "–"} | `
      + `${a?.latency.total.p99?.median?.toFixed(2) ?? "–"} / ${b?.latency.total.p99?.median?.toFixed(2) ?? "–"} |`);
  }
  L.push("", "The scaling factor is 2w/1w: WORKERS=2 on two cores ÷ WORKERS=1 pinned to one core, paired within each round. "
    + "One process on two cores already gains from the second core (libuv's thread pool signs the RSA signatures there), "
    + "so \"2w ÷ 1w on 2 cores\" (the ratio of the two paired ratios) is what the second process adds on the same cores.");
  L.push("", "With 2 workers the load client shares the two cores with the server: its CPU is shown so the scaling can be read "
    + "against what was left for the server.");
}

function postgres(r, L) {
  const pg = r.postgres;
  if (!pg) return;
  L.push("", "## PostgreSQL beside SQLite (our service)", "");
  if (pg.skipped || pg.error) return void L.push(`Not measured: ${pg.skipped ?? pg.error}`);
  L.push(`${pg.version}; a throw-away cluster (initdb, 127.0.0.1, fsync off, synchronous_commit off: the data is thrown away, `
    + "so the figures are the CPU cost, not the durability cost, of PostgreSQL), migrated with scripts/migrate-postgres.mjs. "
    + `Statements per operation: ${pg.statementsCounted ?? "not counted (pg_stat_statements unavailable)"}, over each whole point `
    + "(so BEGIN/COMMIT shared by concurrent requests count once, and the server's background work counts too).");
  const sqlite = (name) => at(r, name)?.ours?.summary;
  const rows = (label, part, names) => {
    if (!part) return;
    if (part.skipped) return void L.push("", `${label}: not measured: ${part.skipped}`);
    L.push("", `**${label}** (${part.pinning}${part.nginx ? `; nginx ${part.nginx}` : ""}):`, "");
    L.push("| scenario | ops/s | p99 ms | server CPU ms/op | PostgreSQL CPU ms/op | nginx CPU ms/op | statements/op | SQLite (main run): ops/s, CPU ms/op |",
      "|---|---:|---:|---:|---:|---:|---:|---:|");
    for (const [name, p] of Object.entries(part.points)) {
      const s = p[names]?.summary;
      const sq = sqlite(name);
      L.push(`| ${name} (${p.unit}) | ${rate(s?.rate)} | ${ms(s?.latency.total.p99)} | ${ms(s?.serverCpuMsPerIteration)} | `
        + `${ms(s?.sideCpuMsPerIteration?.postgres)} | ${s?.sideCpuMsPerIteration?.nginx ? ms(s.sideCpuMsPerIteration.nginx) : "–"} | `
        + `${s?.statementsPerIteration ? s.statementsPerIteration.median.toFixed(1) : "–"} | `
        + `${sq ? `${n0(sq.rate.median)}, ${sq.serverCpuMsPerIteration.median.toFixed(2)}` : "–"} |`);
    }
  };
  rows("One instance", pg.single, "oursPg");
  const q = pg.single?.queries;
  if (q) {
    L.push("", q.error ? `Statements counted in-process: not measured: ${q.error}`
      : `Statements counted in-process (bench/count-queries.ts, each request alone): full flow ${q.fullFlow} (authorize `
        + `${q.authorize.count}, token ${q.token.count}, premium info ${q.premiuminfo.count}); refresh ${q.refresh.count}.`);
  }
  rows("Two instances behind nginx", pg.pair, "oursPgPair");
}

/** Keycloak-style sizing: operations per second per vCPU from the CPU per operation, memory per instance. */
export function sizing(r) {
  const rowsOut = [];
  const one = (db, name, summary, extraMs = 0, memory) => {
    const cpu = summary?.serverCpuMsPerIteration?.median;
    if (!cpu) return;
    const total = cpu + extraMs;
    rowsOut.push({ db, scenario: name, serverMs: cpu, databaseMs: extraMs, perVcpu: 1000 / total, memory });
  };
  for (const name of ["flow", "refresh", "premiuminfo"]) one("SQLite", name, at(r, name)?.ours?.summary, 0, r.servers.ours?.peakRss);
  for (const [name, p] of Object.entries(r.postgres?.single?.points ?? {})) {
    one("PostgreSQL", name, p.oursPg?.summary, p.oursPg?.summary.sideCpuMsPerIteration?.postgres?.median ?? 0, r.postgres.single.peakRss);
  }
  for (const [name, p] of Object.entries(r.postgres?.pair?.points ?? {})) {
    const side = p.oursPgPair?.summary.sideCpuMsPerIteration;
    one("PostgreSQL, 2 instances + nginx", name, p.oursPgPair?.summary, (side?.postgres?.median ?? 0) + (side?.nginx?.median ?? 0),
      r.postgres.pair.peakRssPerInstance);
  }
  return rowsOut;
}

function sizingSection(r, L) {
  const rows = sizing(r);
  if (!rows.length) return;
  const label = { flow: "full flow with sign-in session (authorize → token → premium info)", refresh: "refresh-token grant",
    premiuminfo: "premium info request" };
  L.push("", "## Sizing", "");
  L.push("Per vCPU, in the form of Keycloak's sizing guide: operations per second that one vCPU of this host sustains, from "
    + `the measured CPU per operation at concurrency ${C} (1000 ÷ CPU ms per operation). For PostgreSQL the database server's own `
    + "CPU per operation is added (the service and the database on vCPUs of the same speed). Assumptions: CPU-bound and linear in "
    + "vCPUs (one worker per vCPU); the load client, TLS termination and the network are not included; the host's speed of this "
    + `run (one core signs ${n0(r.bound?.perSecond)} RS256 signatures/s with jose) — scale by yours; leave headroom for peaks (Keycloak's `
    + "guide adds 150 %). \"With sign-in session\": the browser is already signed in and consent remembered, as when an app "
    + "signs a returning user in; a first sign-in adds the sign-in screens and the one-time code. Memory: peak RSS of one instance "
    + "(one process) over the run.", "");
  L.push("| operation | database | server CPU ms/op | database (+ nginx) CPU ms/op | ops/s per vCPU | memory per instance |", "|---|---|---:|---:|---:|---:|");
  for (const x of rows) {
    L.push(`| ${label[x.scenario]} | ${x.db} | ${x.serverMs.toFixed(2)} | ${x.db === "SQLite" ? "(in process)" : x.databaseMs.toFixed(2)} | `
      + `**${n0(x.perVcpu)}** | ${mb(x.memory)} |`);
  }
  L.push("", "Example: 500 full flows/s on PostgreSQL need 500 ÷ (flows/s per vCPU) vCPUs at saturation, split between the "
    + "service's workers and the database in the proportion of their CPU per flow; plus headroom.");
}

/** All of the above, in report order. */
export function renderIssue23Sections(r, L) {
  algorithms(r, L);
  profile(r, L);
  workers(r, L);
  postgres(r, L);
  sizingSection(r, L);
}
