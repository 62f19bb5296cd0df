import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

// A tiny run of `npm run bench` (issues 9 and 23) so the harness cannot rot: both servers, every default scenario,
// concurrency 1, one short repeat, on the build the test run already made (no rebuild), with the profile, the
// workers point and the PostgreSQL points (when PostgreSQL is installed). Only the shape and sanity of the result are
// checked; timings are never asserted.
const root = fileURLToPath(new URL("../../..", import.meta.url));
const tmp = path.join(root, "bench", "results", "tmp"); // git-ignored
mkdirSync(tmp, { recursive: true });
const outDir = mkdtempSync(path.join(tmp, "smoke-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function runHarness(args: string[], script = "run.mjs"): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The harness sets its servers' environment itself; nothing of this test process's own server leaks in.
  const env = Object.fromEntries(Object.entries(process.env)
    .filter(([k]) => !/^(VITEST|NODE_OPTIONS|DATABASE_URL|ISSUER|PORT)/.test(k))) as NodeJS.ProcessEnv;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, "bench", script), ...args], { cwd: root, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

interface Summary { completed: number; errors: number; errorSamples: string[]; rate: { median: number } | null }
type Point = { concurrency: number } & Partial<Record<"ours" | "theirs" | "null", { summary: Summary }>>;

describe("npm run bench (smoke)", () => {
  it("measures both servers and the bound, and writes the report", async () => {
    const distDir = process.env.NEXT_DIST_DIR || ".next";
    const { code, stdout, stderr } = await runHarness(["--quick", "--duration", "0.5", "--warmup", "0.2",
      "--no-build", "--dist-dir", distDir, "--out-dir", outDir]);
    expect(code, stderr.slice(-2000)).toBe(0);

    const result = JSON.parse(readFileSync(path.join(outDir, "latest.json"), "utf8"));
    expect(result.errors).toBe(0);
    expect(result.bound.perSecond).toBeGreaterThan(0);
    expect(result.machine.cores).toBeGreaterThan(0);
    for (const name of ["flow", "refresh", "premiuminfo", "metadata", "jwks"]) {
      const [point] = result.scenarios[name].points as Point[];
      expect(point!.concurrency).toBe(1);
      for (const server of ["ours", "theirs", "null"] as const) {
        const s = point![server]!.summary;
        expect(s.errorSamples, `${name} ${server}`).toEqual([]);
        expect(s.completed, `${name} ${server}`).toBeGreaterThan(0);
        expect(s.rate!.median).toBeGreaterThan(0);
      }
    }
    expect(Object.keys(result.scenarios.flow.points[0].ours.summary.latency)).toEqual(["total", "authorize", "token", "premiuminfo"]);

    expect(result.queries.fullFlow).toBeGreaterThan(0);
    expect(Object.keys(result.displays)).toEqual(["page", "popup", "touch", "wap"]);
    expect(result.displays.wap.html.decoded).toBeGreaterThan(0);

    expect(stdout).toContain("## Full flow");
    expect(stdout).toContain("ours/theirs");
    expect(result.servers.theirs.label).toContain("O(1) in-memory adapter");

    // ES256 beside RS256: measured on both, or "not measured" with the reason (a build whose admin CLI has no
    // --id-token-alg), never counted as errors.
    const es = result.scenarios.flowEs256;
    expect(es.points[0].theirs.summary.completed).toBeGreaterThan(0);
    if (!es.points[0].ours) expect(result.notes.join("\n")).toMatch(/ES256.*not measured on this service/s);

    // The profile of our server, grouped.
    expect(result.profile.groups.map((g: { name: string }) => g.name)).toEqual(["HTTP parse/write", "handlers", "SQLite", "signature",
      "JSON/JWT assembly", "GC", "other"]);
    expect(result.profile.busyUs).toBeGreaterThan(0);
    expect(stdout).toContain("## Where our server's CPU goes");

    // Workers: either a cluster build measured with 1 and 2 workers, or said not to be one.
    expect(typeof result.workers.cluster).toBe("boolean");
    if (result.workers.cluster) expect(result.workers.points.flow.ours2w.summary.completed).toBeGreaterThan(0);
    else expect(result.workers.reason).toMatch(/not a cluster build/);
    expect(stdout).toContain("## Workers");

    // PostgreSQL: one instance and two behind nginx, or skipped with the reason.
    if (result.postgres.skipped) expect(result.postgres.skipped).toMatch(/not installed/);
    else {
      const one = result.postgres.single.points.flow.oursPg.summary;
      expect(one.completed).toBeGreaterThan(0);
      expect(one.sideCpuMsPerIteration.postgres.median).toBeGreaterThanOrEqual(0);
      if (result.postgres.statementsCounted) expect(one.statementsPerIteration.median).toBeGreaterThan(0);
      if (!result.postgres.pair.skipped) expect(result.postgres.pair.points.flow.oursPgPair.summary.completed).toBeGreaterThan(0);
      expect(stdout).toContain("## PostgreSQL beside SQLite");
    }
    expect(stdout).toContain("## Sizing");
    expect(readFileSync(path.join(outDir, "latest.md"), "utf8")).toBe(stdout);
  }, 420_000);

  it("bench/tail-anatomy.mjs: every flow kept, and the server's own GC and stall record read back", async () => {
    const { code, stdout, stderr } = await runHarness(["1", "2"], "tail-anatomy.mjs");
    expect(code, stderr.slice(-2000)).toBe(0);
    const [, flows] = /^(\d+) full flows in [\d.]+ s at concurrency 2/m.exec(stdout) ?? [];
    expect(Number(flows), stdout).toBeGreaterThan(0);
    expect(stdout).toMatch(/^latency ms: p50 [\d.]+, p90 [\d.]+, p99 [\d.]+/m);
    expect(stdout).toMatch(/^GC pauses: /m);
    expect(stdout).toMatch(/^of the slowest 1 %: \d+ \([\d.]+ %\) overlap a GC pause/m);
  }, 120_000);
});
