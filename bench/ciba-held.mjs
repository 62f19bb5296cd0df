#!/usr/bin/env node
// Issue 20: "holding 10,000 pending backchannel requests on one instance costs flat memory and no CPU while idle
// (measure it in the benchmark, with the notification endpoint a local server)".
//
//   npm run bench:ciba                                    # builds into .next-bench first (~4 min), then ~3 min
//   npm run bench:ciba -- --no-build --dist-dir .next     # on an existing production build
//   node bench/ciba-held.mjs --no-build --dist-dir .next --pending 2000 --idle 10   # a smaller run
//
// The production server (bench/lib/ours.mjs: fresh SQLite file, the server bundle, `npm start`'s Node flags) with the
// abuse limits and the pending ceilings raised through its environment, a ping-mode client whose notification
// endpoint is an HTTP server in this process, and subscribers with an enrolled handset each. Pending requests are
// created through POST /bc-authorize; at 0, 1,000, 5,000 and 10,000 the server's resident set (/proc/<pid>/status
// VmRSS) and its V8 heap after a full GC (bench/lib/heap-probe.mjs, preloaded, on SIGUSR2) are read; then its CPU
// time (/proc/<pid>/stat utime+stime, all threads) over an idle window with everything pending; then a sample is
// approved on the handsets (the device app's answer form over HTTP) and the ping notifications must all arrive.
// Writes bench/results/ciba-held.md (and prints it).
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { buildOurs, startOurs } from "./lib/ours.mjs";
import { basicAuth, createHttpClient } from "./lib/http-client.mjs";
import { root } from "./lib/processes.mjs";

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
if (flag("--help")) {
  console.log("node bench/ciba-held.mjs [--no-build] [--dist-dir .next-bench] [--pending 10000] [--checkpoints 1000,5000]" +
    " [--idle 30] [--sample 20] [--subscribers 20] [--concurrency 16] [--out bench/results/ciba-held.md] [--cpu-prof dir]");
  process.exit(0);
}
const distDir = opt("--dist-dir", ".next-bench");
const PENDING = Number(opt("--pending", "10000"));
const CHECKPOINTS = [...opt("--checkpoints", "1000,5000").split(",").map(Number).filter((n) => n > 0 && n < PENDING), PENDING];
const IDLE_S = Number(opt("--idle", "30"));
const SAMPLE = Number(opt("--sample", "20"));
const SUBSCRIBERS = Number(opt("--subscribers", "20"));
const CONCURRENCY = Number(opt("--concurrency", "16"));
const OUT = path.resolve(root, opt("--out", "bench/results/ciba-held.md"));
const log = (m) => process.stderr.write(`[ciba-held] ${m}\n`);
const CIBA_GRANT = "urn:openid:params:grant-type:ciba";
const sha256 = (v) => createHash("sha256").update(v).digest("base64url");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const perSubscriber = Math.ceil(PENDING / SUBSCRIBERS);
if (perSubscriber > 1000) throw new Error("APPROVAL_PENDING_PER_SUBSCRIBER is at most 1000: use more --subscribers");

/** Markdown lines of at most 120 characters (tables left as they are; a bullet's continuation indented). */
function wrap(text, width = 120) {
  return text.split("\n").flatMap((line) => {
    if (line.length <= width || line.startsWith("|")) return [line];
    const indent = line.startsWith("- ") ? "  " : "";
    const out = [];
    let cur = "";
    for (const word of line.split(" ")) {
      if (cur && (cur + " " + word).length > width) {
        out.push(cur);
        cur = indent + word;
      } else cur = cur ? `${cur} ${word}` : word;
    }
    if (cur) out.push(cur);
    return out;
  }).map((l) => l.trimEnd()).join("\n");
}

// ---- /proc readings of the server process (all its threads) ----
const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
function cpuSeconds(pid) {
  const s = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / CLK_TCK; // utime + stime (fields 14, 15)
}
function vmRss(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
}
/** Context switches summed over the process's threads: each wake-up of a thread counts one. */
function contextSwitches(pid) {
  let n = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      const st = readFileSync(`/proc/${pid}/task/${t}/status`, "utf8");
      n += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(st)?.[1] ?? 0) + Number(/nonvoluntary_ctxt_switches:\s+(\d+)/.exec(st)?.[1] ?? 0);
    } catch {
      /* thread gone */
    }
  }
  return n;
}
const threads = (pid) => readdirSync(`/proc/${pid}/task`).length;

// ---- the heap probe (bench/lib/heap-probe.mjs in the server) ----
const probeFile = path.join(root, ".tmp", `heap-probe-${process.pid}.json`);
mkdirSync(path.dirname(probeFile), { recursive: true });
rmSync(probeFile, { force: true });
let lastSeq = 0;
async function heapAfterGc(pid) {
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 200; i++) {
    await sleep(25);
    if (!existsSync(probeFile)) continue;
    try {
      const r = JSON.parse(readFileSync(probeFile, "utf8"));
      if (r.seq > lastSeq) {
        lastSeq = r.seq;
        return r;
      }
    } catch {
      /* being written */
    }
  }
  throw new Error("the heap probe did not answer (was bench/lib/heap-probe.mjs preloaded?)");
}

// ---- the relying party's notification endpoint ----
const notifications = new Map(); // auth_req_id → { at, authorization }
let notificationCount = 0;
const rp = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    notificationCount++;
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      notifications.set(body.auth_req_id, { at: performance.now(), authorization: req.headers.authorization });
    } catch {
      /* counted */
    }
    res.writeHead(204).end();
  });
});
await new Promise((r) => rp.listen(0, "127.0.0.1", r));
const notifyUrl = `http://127.0.0.1:${rp.address().port}/ciba/ping`;

// ---- the server ----
Object.assign(process.env, {
  // Everything comes from 127.0.0.1 and one client: the abuse limits are lifted, the pending ceilings raised.
  APPROVAL_LIMIT_PER_IP: "1000000", APPROVAL_LIMIT_PER_NAT_IP: "1000000", APPROVAL_LIMIT_PER_IP_AND_NUMBER: "1000000",
  APPROVAL_LIMIT_PER_NUMBER: "1000000", APPROVAL_LIMIT_PER_CLIENT: "1000000", BACKCHANNEL_LIMIT_PER_CLIENT: "1000000",
  APPROVAL_PENDING_PER_SUBSCRIBER: String(Math.min(1000, perSubscriber + SAMPLE)), APPROVAL_PENDING_PER_CLIENT: "1000000",
  OTP_SEND_LIMIT_PER_IP: "100000", OTP_SEND_LIMIT_PER_MSISDN: "100000", OTP_SEND_LIMIT_PER_REQUESTER: "100000",
  CLIENT_AUTH_FAILURE_LIMIT: "100000", CLIENT_AUTH_FAILURE_LIMIT_PER_IP: "100000",
  // Every request stays pending through the whole run.
  CIBA_MAX_EXPIRY: "3600",
  HEAP_PROBE_FILE: probeFile,
  BENCH_NODE_FLAGS: `--expose-gc --import ${path.join(root, "bench/lib/heap-probe.mjs")} ${process.env.BENCH_NODE_FLAGS ?? ""}`,
});
if (!flag("--no-build")) buildOurs({ distDir, log });
const ours = await startOurs({ distDir, serverCore: null, log, cpuProfDir: opt("--cpu-prof", null) });
const pid = ours.pid;
let exitCode = 0;
try {
  // The ping client and the subscribers with their handsets, written directly (what the admin CLI and the handset
  // enrolment leave behind): the benchmark measures holding requests, not enrolling phones.
  const sqlite = new Database(ours.databaseFile);
  sqlite.pragma("busy_timeout = 5000");
  sqlite.prepare(`UPDATE Client SET grantTypes = ?, backchannelTokenDeliveryMode = 'ping',
    backchannelClientNotificationEndpoint = ? WHERE id = ?`).run(`authorization_code refresh_token ${CIBA_GRANT}`, notifyUrl, ours.client.id);
  const template = sqlite.prepare("SELECT * FROM Subscriber WHERE msisdn = '447700900777'").get();
  const cols = Object.keys(template);
  const insertSubscriber = sqlite.prepare(`INSERT INTO Subscriber (${cols.map((c) => `"${c}"`).join(", ")})
    VALUES (${cols.map(() => "?").join(", ")})`);
  const now = new Date().toISOString().replace("Z", "+00:00");
  const insertDevice = sqlite.prepare("INSERT INTO Device (id, subscriberId, name, secretHash, createdAt) VALUES (?, ?, ?, ?, ?)");
  const subscribers = [];
  sqlite.transaction(() => {
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const id = randomBytes(16).toString("hex");
      const msisdn = `44770091${String(i).padStart(4, "0")}`;
      insertSubscriber.run(...cols.map((c) => (c === "id" ? id : c === "msisdn" ? msisdn : c === "userCodeHash" ? null : template[c])));
      const secret = randomBytes(32).toString("base64url");
      insertDevice.run(randomBytes(9).toString("base64url"), id, `Bench phone ${i}`, sha256(secret), now);
      subscribers.push({ id, msisdn, cookie: `op_device=${secret}` });
    }
  })();
  const pendingInDb = () => sqlite.prepare("SELECT count(*) AS n FROM BackchannelRequest WHERE status = 'pending'").get().n;

  const client = createHttpClient(ours.origin, { sockets: CONCURRENCY });
  const auth = basicAuth(ours.client.id, ours.client.secret);
  const authReqIds = [];
  let created = 0;
  const refusals = new Map();
  async function createUpTo(target) {
    const started = performance.now();
    const cpu0 = cpuSeconds(pid);
    const from = created;
    let next = created;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < target; i = next++) {
        const sub = subscribers[i % SUBSCRIBERS];
        for (;;) {
          const body = new URLSearchParams({ scope: "openid mc_identity_phonenumber", login_hint: `tel:+${sub.msisdn}`,
            binding_message: `Bench ${i % 10000}`, client_notification_token: randomBytes(24).toString("base64url"),
            requested_expiry: "1800" }).toString();
          const res = await client.request("POST", "/bc-authorize", { body,
            headers: { "content-type": "application/x-www-form-urlencoded", authorization: auth } });
          if (res.status === 200) {
            authReqIds[i] = { id: JSON.parse(res.text()).auth_req_id, sub };
            created++;
            break;
          }
          const key = `${res.status} ${res.text().slice(0, 120)}`;
          refusals.set(key, (refusals.get(key) ?? 0) + 1);
          if ([...refusals.values()].reduce((a, b) => a + b) > 50) {
            throw new Error(`/bc-authorize refused: ${[...refusals].map(([k, n]) => `${n}× ${k}`).join("; ")}`);
          }
          await sleep(100); // then the same request again
        }
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    return { count: created - from, seconds, cpu: cpuSeconds(pid) - cpu0 };
  }

  const rows = [];
  async function sample(label) {
    await sleep(2000); // whatever the last request started (delivery kick, events) has settled
    const rssBefore = vmRss(pid);
    const probe = await heapAfterGc(pid);
    const row = { label, pending: pendingInDb(), rss: rssBefore, rssAfterGc: vmRss(pid), heapUsed: probe.heapUsed,
      external: probe.external, threads: threads(pid), cpuTotal: cpuSeconds(pid) };
    rows.push(row);
    log(`${label}: ${row.pending} pending, RSS ${mb(row.rss)} MB, heap after GC ${mb(row.heapUsed)} MB`);
    return row;
  }
  const mb = (b) => (b / 1048576).toFixed(1);
  // An idle window: no request, no probe; only /proc is read, at its start and its end.
  const idles = [];
  async function idleWindow(label) {
    log(`${label}: idle ${IDLE_S} s…`);
    const w = { label, pending: pendingInDb(), cpu0: cpuSeconds(pid), cs0: contextSwitches(pid), rss0: vmRss(pid), t0: performance.now() };
    await sleep(IDLE_S * 1000);
    Object.assign(w, { cpu1: cpuSeconds(pid), cs1: contextSwitches(pid), rss1: vmRss(pid), t1: performance.now() });
    w.cpu = w.cpu1 - w.cpu0;
    w.seconds = (w.t1 - w.t0) / 1000;
    w.wakeups = w.cs1 - w.cs0;
    idles.push(w);
    log(`${label}: ${w.cpu.toFixed(2)} s CPU over ${w.seconds.toFixed(1)} s, ${w.wakeups} context switches`);
    return w;
  }

  await sample("started, nothing pending (cold)");
  await idleWindow("started, nothing pending (cold)");
  const creation = [];
  for (const target of CHECKPOINTS) {
    const c = await createUpTo(target);
    creation.push({ to: target, ...c });
    log(`created ${c.count} in ${c.seconds.toFixed(1)} s (${(c.count / c.seconds).toFixed(0)}/s, server CPU ${(1000 * c.cpu / c.count).toFixed(2)} ms each)`);
    await sample(`${target.toLocaleString("en")} pending`);
    if (target !== PENDING) await idleWindow(`${target.toLocaleString("en")} pending`);
  }

  // Idle with everything pending.
  const idle = await idleWindow(`${PENDING.toLocaleString("en")} pending`);
  const idleCpu = idle.cpu;
  const idleSeconds = idle.seconds;
  const notificationsBeforeAnswers = notificationCount;

  // A sample answered on the handsets (one per subscriber first): each ping must arrive; two are redeemed.
  const answered = [];
  const picked = [];
  for (let i = 0; picked.length < Math.min(SAMPLE, created); i += Math.max(1, Math.floor(created / SAMPLE))) picked.push(authReqIds[i]);
  for (const r of picked) {
    const dr = sqlite.prepare("SELECT id FROM DeviceRequest WHERE backchannelRequestId = ?").get(sha256(r.id));
    if (!dr) throw new Error("a pending backchannel request has no handset request");
    const t0 = performance.now();
    const res = await client.request("POST", `/handset/requests/${dr.id}`, { body: "decision=approve",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ours.origin, cookie: r.sub.cookie } });
    const result = new URL(res.headers.location ?? "/", ours.origin).searchParams.get("result");
    if (result !== "approved_backchannel") throw new Error(`the handset answer was ${res.status} ${res.headers.location}`);
    answered.push({ id: r.id, t0, answeredIn: performance.now() - t0 });
  }
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline && answered.some((a) => !notifications.has(a.id))) await sleep(20);
  const latencies = answered.filter((a) => notifications.has(a.id)).map((a) => notifications.get(a.id).at - a.t0).sort((x, y) => x - y);
  const missing = answered.length - latencies.length;
  const wrongBearer = answered.filter((a) => notifications.has(a.id) && !/^Bearer .+/.test(notifications.get(a.id).authorization ?? "")).length;
  let redeemed = 0;
  for (const a of answered.slice(0, 2)) {
    const res = await client.request("POST", "/token", { body: new URLSearchParams({ grant_type: CIBA_GRANT, auth_req_id: a.id }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: auth } });
    if (res.status === 200 && JSON.parse(res.text()).id_token) redeemed++;
  }
  const after = await sample(`after ${answered.length} answers`);
  client.close();
  sqlite.close();

  // ---- report ----
  const at = (n) => rows.find((r) => r.label === `${n.toLocaleString("en")} pending`);
  const first = at(CHECKPOINTS[0]);
  const last = at(PENDING);
  const span = PENDING - CHECKPOINTS[0];
  const perReqRss = span > 0 ? (last.rss - first.rss) / span : 0;
  const perReqHeap = span > 0 ? (last.heapUsed - first.heapUsed) / span : 0;
  const median = (a) => a[Math.floor(a.length / 2)] ?? NaN;
  const cpus = os.cpus();
  const load = os.loadavg().map((l) => l.toFixed(2)).join(" ");
  const md = [
    "# Holding pending CIBA requests: memory and idle CPU (`bench/ciba-held.mjs`)",
    "",
    `Run ${new Date().toISOString()} on ${os.hostname()}: ${cpus.length} × ${cpus[0]?.model ?? "?"}, ` +
      `${(os.totalmem() / 2 ** 30).toFixed(1)} GB, Linux ${os.release()}, Node.js ${process.version}; load average at the end ${load} ` +
      "(a shared host: other work ran beside it).",
    `Server: the production build (\`${distDir}\`), \`npm start\`'s Node flags plus \`--expose-gc\` and the heap probe, ` +
      "SQLite (WAL), not pinned. One ping-mode client whose notification endpoint is an HTTP server in the benchmark's " +
      `process; ${SUBSCRIBERS} subscribers with an enrolled handset each; ${PENDING.toLocaleString("en")} requests created ` +
      `through \`POST /bc-authorize\` (client_secret_basic, \`requested_expiry=1800\`, ${CONCURRENCY} at a time).`,
    "",
    "| state | pending (database) | RSS (VmRSS) | RSS after a full GC | V8 heap used after GC | external | threads |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.label} | ${r.pending} | ${mb(r.rss)} MB | ${mb(r.rssAfterGc)} MB | ${mb(r.heapUsed)} MB | ` +
      `${mb(r.external)} MB | ${r.threads} |`),
    "",
    `- **Memory per pending request** (${CHECKPOINTS[0].toLocaleString("en")} → ${PENDING.toLocaleString("en")}, after warm-up): ` +
      `RSS ${(perReqRss).toFixed(0)} bytes, V8 heap after GC ${(perReqHeap).toFixed(0)} bytes per request.`,
    `- **Idle with ${created.toLocaleString("en")} pending**: ${idleCpu.toFixed(2)} s of server CPU over ${idleSeconds.toFixed(1)} s ` +
      `(${(100 * idleCpu / idleSeconds).toFixed(2)} % of one core; /proc's resolution is ${(1000 / CLK_TCK).toFixed(0)} ms), ` +
      `${idle.wakeups} thread wake-ups (context switches, all threads), RSS ${mb(idle.rss0)} → ${mb(idle.rss1)} MB; ` +
      `${notificationsBeforeAnswers} notifications sent before any answer. Every idle window (${IDLE_S} s, nothing else running ` +
      "in the server):",
    "",
    "| idle window | pending | server CPU | % of one core | thread wake-ups | RSS start → end |",
    "|---|---:|---:|---:|---:|---:|",
    ...idles.map((w) => `| ${w.label} | ${w.pending} | ${w.cpu.toFixed(2)} s | ${(100 * w.cpu / w.seconds).toFixed(2)} % | ` +
      `${w.wakeups} | ${mb(w.rss0)} → ${mb(w.rss1)} MB |`),
    "",
    `- **Creating them**: ${creation.map((c) => `${c.count.toLocaleString("en")} in ${c.seconds.toFixed(1)} s ` +
      `(${(c.count / c.seconds).toFixed(0)}/s, ${(1000 * c.cpu / c.count).toFixed(2)} ms server CPU each)`).join("; ")}.` +
      (refusals.size ? ` Refusals retried: ${[...refusals].map(([k, n]) => `${n}× ${k}`).join("; ")}.` : ""),
    `- **Answers**: ${answered.length} requests approved on their handsets (the answer form, median ` +
      `${median(answered.map((a) => a.answeredIn).sort((x, y) => x - y)).toFixed(0)} ms each): ${latencies.length} ping notifications ` +
      `arrived (${missing} missing, ${wrongBearer} without the bearer token), median ${median(latencies).toFixed(0)} ms and at most ` +
      `${(latencies.at(-1) ?? NaN).toFixed(0)} ms after the answer was sent; ${redeemed} of 2 redeemed at the token endpoint; ` +
      `${after.pending} still pending.`,
    "",
    ...(process.env.CIBA_HELD_NOTE ? [process.env.CIBA_HELD_NOTE, ""] : []),
    "How it was measured: RSS is `/proc/<pid>/status` VmRSS of the server process, read before anything else touches it; ",
    "the heap is `process.memoryUsage()` inside the server after `gc()` (bench/lib/heap-probe.mjs, run on SIGUSR2, so",
    "the probe itself has no timer); CPU is utime + stime of `/proc/<pid>/stat` (every thread: the event loop, libuv's",
    "pool, V8's GC and compiler threads); each state is read 2 s after the last request. The idle window reads only",
    "/proc, at its start and end. Rerun: `npm run bench:ciba -- --no-build --dist-dir .next` after a production build.",
    "",
  ].join("\n");
  writeFileSync(OUT, wrap(md));
  process.stdout.write(wrap(md));
  if (missing > 0 || redeemed < Math.min(2, answered.length)) exitCode = 1;
} catch (err) {
  console.error(err);
  exitCode = 1;
} finally {
  await ours.stop();
  rp.close();
  rmSync(probeFile, { force: true });
}
process.exit(exitCode);
