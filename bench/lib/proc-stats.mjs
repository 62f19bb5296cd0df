// Server resource use read from /proc (Linux): CPU time (utime+stime, plus cutime+cstime of children
// that already exited) and peak RSS (VmHWM) summed over a process and all its descendants.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

let clockTicks;
function ticksPerSecond() {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

function readStat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm)": state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17).
    const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

/** The pid and every live descendant of it. */
export function processTree(rootPid) {
  const children = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const st = readStat(name);
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push(Number(name));
  }
  const out = [];
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU seconds consumed so far by the process tree. */
export function treeCpuSeconds(rootPid) {
  let ticks = 0;
  for (const pid of processTree(rootPid)) ticks += readStat(pid)?.ticks ?? 0;
  return ticks / ticksPerSecond();
}

/** Peak resident set (VmHWM) of the tree in bytes, summed over its processes; current RSS too. */
export function treeMemory(rootPid) {
  let hwm = 0;
  let rss = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      hwm += Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      rss += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      /* exited meanwhile */
    }
  }
  return { peakRss: hwm, rss };
}
