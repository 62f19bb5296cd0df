// What request counting costs in isolation, without the machine's noise: lib/metrics/count-request.ts on a
// stand-in request and response (an EventEmitter closed as node:http closes a finished response), timed over many
// calls, with METRICS=on and with METRICS=off (each in its own process: the setting is read once).
// `npx tsx bench/metrics-cost.ts` prints both and the difference per request in nanoseconds.
import { spawnSync } from "node:child_process";
import { EventEmitter } from "node:events";
import type http from "node:http";

const N = 500_000;
const PATHS = ["/authorize", "/token", "/premiuminfo", "/authorize/resume/abcdefghijklmnopqrstuv", "/interaction/x/code"];

async function measure(): Promise<number> {
  const { countRequest } = await import("../lib/metrics/count-request");
  const once = (i: number) => {
    const req = { url: `${PATHS[i % PATHS.length]}?x=1`, method: i % 3 ? "GET" : "POST" } as http.IncomingMessage;
    const res = Object.assign(new EventEmitter(), { statusCode: 200 + (i % 2) * 102, writableFinished: true });
    countRequest(req, res as unknown as http.ServerResponse);
    res.emit("close");
  };
  for (let i = 0; i < N / 5; i++) once(i); // warm-up
  const best: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) once(i);
    best.push(Number(process.hrtime.bigint() - t0) / N);
  }
  return Math.min(...best);
}

if (process.env.METRICS_COST_CHILD) {
  console.log(JSON.stringify(await measure()));
} else {
  const run = (metrics: string) => {
    const r = spawnSync(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname], {
      env: { ...process.env, METRICS: metrics, METRICS_COST_CHILD: "1", LOG_LEVEL: "silent",
        KEY_ENCRYPTION_SECRET: "k".repeat(32), SUBJECT_SECRET: "s".repeat(32) }, encoding: "utf8" });
    if (r.status !== 0) throw new Error(r.stderr);
    return Number(r.stdout.trim().split("\n").at(-1));
  };
  const off = run("off");
  const on = run("on");
  console.log(`per request, including a stand-in request/response: METRICS=off ${off.toFixed(0)} ns, ` +
    `METRICS=on ${on.toFixed(0)} ns; recording adds ${(on - off).toFixed(0)} ns per request`);
}
