// Command-line options of `npm run bench` (see bench/README.md).
import { parseArgs } from "node:util";

export const ALL_SCENARIOS = ["flow", "flowDpop", "flowKey", "flowKeyDpop", "flowEs256", "flowPs256", "flowEdDsa", "refresh",
  "premiuminfo", "metadata", "jwks", "numberVerification"];
/** The default run: all but the optional PS256 and EdDSA flows. */
export const DEFAULT_SCENARIOS = ALL_SCENARIOS.filter((s) => s !== "flowPs256" && s !== "flowEdDsa");
/** The headline scenarios: measured at every default concurrency, on PostgreSQL and with workers; the rest at 8 only. */
export const HEADLINE_SCENARIOS = ["flow", "refresh", "premiuminfo"];
export const ALL_SERVERS = ["ours", "theirs", "theirsDefault"];
const USAGE = `npm run bench -- [options]
  --duration <s>        seconds per measured point (default 10)
  --warmup <s>          warm-up seconds before each scenario × concurrency (default 3)
  --repeats <n>         measured repeats per point (default 3)
  --concurrency <list>  comma-separated worker counts for every scenario (default: 1,8,32 for
                        ${HEADLINE_SCENARIOS.join(", ")}; 8 for the others)
  --scenarios <list>    ${ALL_SCENARIOS.join(",")}
                        (default all but flowPs256,flowEdDsa)
  --servers <list>      ${ALL_SERVERS.join(",")} (default ours,theirs: theirs is node-oidc-provider
                        with the O(1) in-memory adapter, theirsDefault with its default adapter)
  --peer-default        add theirsDefault to the servers
  --no-workers          skip the WORKERS=1 vs WORKERS=2 points
  --no-postgres         skip the PostgreSQL points (one instance, two behind nginx)
  --no-profile          skip the V8 profile of our server (full flow, concurrency 8)
  --side-scenarios <l>  scenarios of the workers and PostgreSQL points (default ${HEADLINE_SCENARIOS.join(",")};
                        --quick: flow)
  --side-concurrency <n> concurrency of the workers, PostgreSQL and profile points (default 8)
  --profile-seconds <s> length of the profiled point (default 10; --quick 1)
  --quick               smoke run: 1 s points, 0.3 s warm-up, 1 repeat, concurrency 1, short bound
  --no-build            use the existing build in --dist-dir
  --dist-dir <dir>      Next.js build directory (default .next-bench)
  --out-dir <dir>       where latest.json and latest.md go (default bench/results)
  --server-core <n>     core for the servers and the RS256 bound (default 0)
  --client-core <n>     core for the load client (default 1)
  --no-pin              do not use taskset
  --no-calibrate        skip the null-server run (the load client's own ceiling)
  --no-displays         skip the sign-in page sizes
  --no-queries          skip the statements-per-request count
  --bound-ms <ms>       duration of the RS256 measurement (default 2000)
  --cpu-prof <dir>      write V8 CPU profiles of both servers into <dir> (summarised by bench/profile-summary.mjs)`;

/** Parsed options with defaults applied; prints usage and exits on --help or a bad option. */
export function readOptions(argv) {
  // `--no-<flag>` by hand: parseArgs' allowNegative needs Node 20.16+ (package.json allows 20.9).
  const negated = new Set();
  const args = argv.filter((a) => {
    const m = /^--no-(build|pin|calibrate|displays|queries|workers|postgres|profile)$/.exec(a);
    if (m) negated.add(m[1]);
    return !m;
  });
  let parsed;
  try {
    parsed = parseArgs({
      args, strict: true,
      options: {
        duration: { type: "string" }, warmup: { type: "string" }, repeats: { type: "string" },
        concurrency: { type: "string" }, scenarios: { type: "string" }, servers: { type: "string" },
        quick: { type: "boolean", default: false }, build: { type: "boolean", default: true },
        "dist-dir": { type: "string", default: ".next-bench" }, "out-dir": { type: "string", default: "bench/results" },
        "server-core": { type: "string", default: "0" }, "client-core": { type: "string", default: "1" },
        pin: { type: "boolean", default: true }, calibrate: { type: "boolean", default: true },
        displays: { type: "boolean", default: true }, queries: { type: "boolean", default: true },
        "bound-ms": { type: "string" }, "peer-default": { type: "boolean", default: false },
        workers: { type: "boolean", default: true }, postgres: { type: "boolean", default: true },
        profile: { type: "boolean", default: true }, "side-scenarios": { type: "string" },
        "side-concurrency": { type: "string" }, "profile-seconds": { type: "string" }, "cpu-prof": { type: "string" }, help: { type: "boolean", default: false },
      },
    }).values;
  } catch (err) {
    console.error(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  for (const name of negated) parsed[name] = false;
  if (parsed.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const q = parsed.quick;
  const num = (v, def, name) => {
    const n = v === undefined ? def : Number(v);
    if (!Number.isFinite(n) || n <= 0) {
      console.error(`--${name} must be a positive number`);
      process.exit(2);
    }
    return n;
  };
  const list = (v, def, allowed, name) => {
    const items = (v ?? def).split(",").map((s) => s.trim()).filter(Boolean);
    const bad = items.filter((s) => allowed && !allowed.includes(s));
    if (!items.length || bad.length) {
      console.error(`--${name}: unknown ${bad.join(",") || "(empty)"}; expected ${allowed?.join(",")}`);
      process.exit(2);
    }
    return items;
  };
  const explicitConcurrency = parsed.concurrency === undefined ? null
    : list(parsed.concurrency, "", null, "concurrency").map((s) => Math.round(num(s, 1, "concurrency")));
  const servers = list(parsed.servers, "ours,theirs", ALL_SERVERS, "servers");
  if (parsed["peer-default"] && !servers.includes("theirsDefault")) servers.push("theirsDefault");
  return {
    quick: q,
    durationMs: num(parsed.duration, q ? 1 : 10, "duration") * 1000,
    warmupMs: num(parsed.warmup, q ? 0.3 : 3, "warmup") * 1000,
    repeats: Math.round(num(parsed.repeats, q ? 1 : 3, "repeats")),
    concurrency: explicitConcurrency ?? (q ? [1] : [1, 8, 32]),
    /** The concurrencies a scenario runs at: the explicit list for all, else 1,8,32 for the headline ones, 8 for the rest. */
    concurrencyFor(name) {
      if (explicitConcurrency || q) return this.concurrency;
      return HEADLINE_SCENARIOS.includes(name) ? this.concurrency : [8];
    },
    scenarios: list(parsed.scenarios, DEFAULT_SCENARIOS.join(","), ALL_SCENARIOS, "scenarios"),
    servers,
    workers: parsed.workers, postgres: parsed.postgres, profile: parsed.profile,
    sideScenarios: list(parsed["side-scenarios"], q ? "flow" : HEADLINE_SCENARIOS.join(","), HEADLINE_SCENARIOS, "side-scenarios"),
    sideConcurrency: Math.round(num(parsed["side-concurrency"], q ? 2 : 8, "side-concurrency")),
    profileMs: num(parsed["profile-seconds"], q ? 1 : 10, "profile-seconds") * 1000,
    build: parsed.build, distDir: parsed["dist-dir"], outDir: parsed["out-dir"],
    serverCore: parsed.pin ? Number(parsed["server-core"]) : null,
    clientCore: parsed.pin ? Number(parsed["client-core"]) : null,
    calibrate: parsed.calibrate, displays: parsed.displays, queries: parsed.queries,
    boundMs: num(parsed["bound-ms"], q ? 400 : 2000, "bound-ms"),
    cpuProf: parsed["cpu-prof"] ?? null,
  };
}
