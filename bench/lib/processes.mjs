// Child-process helpers shared by the servers: free ports, core pinning, health waits, shutdown.
import { spawnSync } from "node:child_process";
import net from "node:net";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const bin = (name) => path.join(root, "node_modules", ".bin", name);

let hasTaskset;
/** Whether `taskset` (util-linux) can pin processes here. */
export function tasksetAvailable() {
  hasTaskset ??= spawnSync("taskset", ["-c", "0", "true"]).status === 0;
  return hasTaskset;
}

/** [command, args] running `cmd args` on one core with taskset, or unpinned when core is null/unavailable. */
export function pinned(core, cmd, args) {
  if (core === null || core === undefined || !tasksetAvailable()) return [cmd, args];
  return ["taskset", ["-c", String(core), cmd, ...args]];
}

/** Pins every thread of this process to one core (the load client). */
export function pinSelf(core) {
  if (core === null || !tasksetAvailable()) return false;
  return spawnSync("taskset", ["-a", "-p", "-c", String(core), String(process.pid)]).status === 0;
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function get(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("error", () => resolve(0));
    req.setTimeout(5000, () => req.destroy());
  });
}

/** Resolves when `url` answers 200; throws if the child exits first or after timeoutMs. */
export async function waitHealthy(child, url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering ${url}`);
    if ((await get(url)) === 200) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

const children = new Set();
process.on("exit", () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

/** SIGTERM, then SIGKILL after 5 s; resolves when the child has exited. */
export function stopChild(child) {
  children.add(child);
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5000).unref();
  });
}

/** Registers a child so that it is killed if the harness exits early. */
export function track(child) {
  children.add(child);
  return child;
}
