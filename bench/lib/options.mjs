// Command-line options of `npm run bench` (see bench/README.md).
import { parseArgs } from "node:util";

export const ALL_SCENARIOS = ["flow", "flowDpop", "flowKey", "flowKeyDpop", "refresh", "premiuminfo", "metadata", "jwks", "numberVerification"];
const USAGE = `npm run bench -- [options]
  --duration <s>        seconds per measured point (default 15)
  --warmup <s>          warm-up seconds before each scenario × concurrency (default 3)
  --repeats <n>         measured repeats per point (default 3)
  --concurrency <list>  comma-separated worker counts (default 1,8,32)
  --scenarios <list>    ${ALL_SCENARIOS.join(",")} (default all)
  --servers <list>      ours,theirs (default both)
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
    const m = /^--no-(build|pin|calibrate|displays|queries)$/.exec(a);
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
        "bound-ms": { type: "string" }, "cpu-prof": { type: "string" }, help: { type: "boolean", default: false },
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
  return {
    quick: q,
    durationMs: num(parsed.duration, q ? 1 : 15, "duration") * 1000,
    warmupMs: num(parsed.warmup, q ? 0.3 : 3, "warmup") * 1000,
    repeats: Math.round(num(parsed.repeats, q ? 1 : 3, "repeats")),
    concurrency: list(parsed.concurrency, q ? "1" : "1,8,32", null, "concurrency").map((s) => Math.round(num(s, 1, "concurrency"))),
    scenarios: list(parsed.scenarios, ALL_SCENARIOS.join(","), ALL_SCENARIOS, "scenarios"),
    servers: list(parsed.servers, "ours,theirs", ["ours", "theirs"], "servers"),
    build: parsed.build, distDir: parsed["dist-dir"], outDir: parsed["out-dir"],
    serverCore: parsed.pin ? Number(parsed["server-core"]) : null,
    clientCore: parsed.pin ? Number(parsed["client-core"]) : null,
    calibrate: parsed.calibrate, displays: parsed.displays, queries: parsed.queries,
    boundMs: num(parsed["bound-ms"], q ? 400 : 2000, "bound-ms"),
    cpuProf: parsed["cpu-prof"] ?? null,
  };
}
