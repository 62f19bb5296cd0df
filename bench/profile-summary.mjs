#!/usr/bin/env node
// Summarises a V8 .cpuprofile (bench/run.mjs profiles our server at concurrency 8 in every run; or
// `npm run bench -- --cpu-prof <dir>`): self time grouped into the parts of a request (groups below), then by package
// or source area, and the top functions. `node bench/profile-summary.mjs <file.cpuprofile> [top]`.
//
// Groups: HTTP parse/write (node:_http_*, net, stream, undici's Request/Response/Headers), handlers (our lib/ and server/ code), SQLite (better-sqlite3,
// lib/store, Prisma), signature (node:crypto's sign, jose's signing), JSON/JWT assembly (JSON.parse/stringify, jose's
// other code, base64url), GC, other (Next.js, timers, the rest). Our code is one bundle (<dist>/server.mjs): its
// frames are mapped to their source files through the bundle's source map. A native frame (no script) counts in the
// group of the nearest frame above it that has one (better-sqlite3's `run` called from lib/store: SQLite), except
// JSON's and the garbage collector. jose signs through WebCrypto on libuv's thread pool: that work is not on the main
// thread, so the profile (main thread only) shows little of the RSA signature; the server's CPU (all threads) does.
import { readFileSync, existsSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

export const GROUPS = ["HTTP parse/write", "handlers", "SQLite", "signature", "JSON/JWT assembly", "GC", "other"];

const sourceMaps = new Map();
function sourceOf(url, line, column) {
  if (!sourceMaps.has(url)) {
    let map = null;
    try {
      const file = url.startsWith("file://") ? fileURLToPath(url) : url;
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = null;
    }
    sourceMaps.set(url, map);
  }
  const map = sourceMaps.get(url);
  if (!map) return null;
  return map.findEntry(line, column)?.originalSource ?? null;
}

/** The group of a frame with a script (url), or null for a native frame (inherits its caller's). */
function groupOf({ url, functionName, lineNumber, columnNumber }) {
  if (url.startsWith("wasm://")) return "SQLite"; // Prisma's query compiler (WebAssembly): only Prisma calls run it
  if (!url) {
    if (functionName === "(garbage collector)") return "GC";
    if (functionName === "(program)" || functionName === "(root)") return "other";
    if (functionName === "stringify" || functionName === "parse") return "JSON/JWT assembly";
    return null;
  }
  if (/^node:(_http_|net$|stream$|_stream|internal\/(streams|http|net|stream_base_commons|js_stream|http_parser))/.test(url)
    || url === "node:net" || url === "node:http" || url.startsWith("node:internal/deps/undici")) return "HTTP parse/write";
  if (url.startsWith("node:internal/crypto") || url === "node:crypto") return "signature";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) {
    if (pkg === "better-sqlite3" || pkg.startsWith("@prisma") || pkg === "prisma" || pkg === ".prisma" || pkg === "pg") return "SQLite";
    if (pkg === "jose") return /\/(runtime\/)?(sign|get_sign_verify_key|crypto_key|check_key_length|subtle_dsa)\.js/.test(url) ? "signature" : "JSON/JWT assembly";
    return "other";
  }
  if (url.startsWith("node:")) return url === "node:buffer" ? "JSON/JWT assembly" : "other";
  if (/\/server\.mjs$/.test(url)) {
    const src = sourceOf(url, lineNumber, columnNumber) ?? "";
    if (/lib\/store\//.test(src) || /lib\/db\./.test(src)) return "SQLite";
    if (/node_modules/.test(src)) return "other";
    return "handlers";
  }
  if (/\.next[^/]*\/server\//.test(url)) return "other"; // Next.js's bundles (pages, app routes through Next)
  return "other";
}

/**
 * Self time per group (microseconds), idle excluded, plus the areas (package or source file) and the top functions.
 * `profile`: a parsed .cpuprofile. `window` ({ startUs, endUs } on the monotonic clock, which V8's profile timestamps
 * and process.hrtime share on Linux) keeps only the samples inside it (the measured point, not start-up); when no
 * sample falls inside (another clock), the whole profile is summarised and `windowed` is false.
 */
export function summarizeProfile(profile, top = 15, window = null) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const groupCache = new Map();
  const group = (id) => {
    if (groupCache.has(id)) return groupCache.get(id);
    const n = byId.get(id);
    let g = groupOf(n.callFrame);
    if (g === null) g = parent.has(id) ? group(parent.get(id)) : "other";
    groupCache.set(id, g);
    return g;
  };
  const dt = profile.timeDeltas;
  const tally = (inside) => {
    const m = new Map();
    let t = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      t += dt[i] ?? 0;
      if (inside(t)) m.set(profile.samples[i], (m.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
    }
    return m;
  };
  let self = window ? tally((t) => t >= window.startUs && t <= window.endUs) : null;
  const windowed = Boolean(self?.size);
  if (!windowed) self = tally(() => true);
  let idle = 0;
  const groups = Object.fromEntries(GROUPS.map((g) => [g, 0]));
  const areas = new Map();
  const fns = new Map();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id).callFrame;
    if (functionName === "(idle)") {
      idle += us;
      continue;
    }
    groups[group(id)] += us;
    let area = url ? (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? (url.startsWith("node:") ? url : null)) : `(native, ${group(id)})`;
    if (!area && /\/server\.mjs$/.test(url)) area = sourceOf(url, lineNumber, columnNumber)?.replace(/^.*?\/(lib|server)\//, "$1/") ?? "server.mjs";
    area ??= url.replace(/^file:\/\//, "");
    areas.set(area, (areas.get(area) ?? 0) + us);
    const key = `${functionName || "(anonymous)"} ${url ? `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : ""}`.trim();
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const busy = Object.values(groups).reduce((a, b) => a + b, 0);
  const sorted = (m) => [...m].sort((x, y) => y[1] - x[1]).slice(0, top).map(([name, us]) => ({ name, us, share: us / busy }));
  return {
    busyUs: busy, idleUs: idle, windowed,
    groups: GROUPS.map((name) => ({ name, us: groups[name], share: busy ? groups[name] / busy : 0 })),
    areas: sorted(areas), functions: sorted(fns),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [file, topArg] = process.argv.slice(2);
  if (!file) {
    console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [top]");
    process.exit(2);
  }
  const s = summarizeProfile(JSON.parse(readFileSync(file, "utf8")), Number(topArg ?? 25));
  const pct = (x) => `${(x * 100).toFixed(1).padStart(5)} %`;
  console.log(`${file}: ${(s.busyUs / 1e6).toFixed(2)} s busy, ${(s.idleUs / 1e6).toFixed(2)} s idle (main thread)`);
  console.log("\nself time by group:");
  for (const g of s.groups) console.log(`${pct(g.share)}  ${g.name}`);
  console.log("\nself time by area:");
  for (const a of s.areas) console.log(`${pct(a.share)}  ${a.name}`);
  console.log("\ntop functions (self):");
  for (const f of s.functions) console.log(`${pct(f.share)}  ${f.name}`);
}
