#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `npm run bench -- --cpu-prof <dir>`): self time by package or
// source area, and the top functions. `node bench/profile-summary.mjs <file.cpuprofile> [top]`.
import { readFileSync } from "node:fs";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const prof = JSON.parse(readFileSync(file, "utf8"));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = prof.timeDeltas;
for (let i = 0; i < prof.samples.length; i++) self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url, name) {
  if (!url) return name === "(garbage collector)" ? "(gc)" : name.startsWith("(") ? name : "(native)";
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) {
    if (nm[1] === "next") {
      const sub = /next\/dist\/(compiled\/[^/]+|server\/[^/]+|[^/]+)/.exec(url)?.[1];
      return `next/${sub ?? "?"}`;
    }
    return nm[1];
  }
  if (url.startsWith("node:")) return url;
  const chunk = /\/(\.next[^/]*\/server\/.*)$/.exec(url);
  if (chunk) return "app bundle (.next/server)";
  return url.replace(/^file:\/\//, "");
}

const areas = new Map();
const fns = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  const { functionName, url, lineNumber } = n.callFrame;
  const a = area(url, functionName);
  areas.set(a, (areas.get(a) ?? 0) + us);
  const key = `${functionName || "(anonymous)"} ${url ? `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : ""}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
}
const pct = (us) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(total / 1e6).toFixed(2)} s of samples`);
console.log("\nself time by area:");
for (const [a, us] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(us)}  ${a}`);
console.log("\ntop functions (self):");
for (const [f, us] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${pct(us)}  ${f}`);
