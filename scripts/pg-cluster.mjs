// A throw-away PostgreSQL cluster for tests and CI: initdb into a temporary directory, listen on
// 127.0.0.1 only (no Unix socket outside that directory), a free port, trust authentication (nothing
// but local processes can reach it), fsync off (the data is thrown away). initdb refuses to run as
// root, so under root (CI containers) the cluster belongs to the `postgres` user that Debian's
// package creates, and the temporary directory is handed to it.
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The directory holding initdb/pg_ctl (PATH first, then Debian's /usr/lib/postgresql/<version>/bin). */
export function findPostgresBin() {
  const fromPath = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  if (fromPath) return path.dirname(fromPath);
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(path.join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], "bin") : undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function ownerOf() {
  if (process.getuid?.() !== 0) return undefined;
  const r = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error("running as root and there is no `postgres` user to own the cluster");
  const g = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  return { user: "postgres", uid: Number(r.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/**
 * Starts a throw-away cluster; resolves with the admin URL (database `postgres`, user `postgres`)
 * and `stop()`, which stops it and deletes its directory. Throws when PostgreSQL is not installed.
 */
export async function startPgCluster({ maxConnections = 200 } = {}) {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (no initdb on PATH or under /usr/lib/postgresql)");
  const owner = ownerOf();
  const dir = mkdtempSync(path.join(os.tmpdir(), "pg-cluster-"));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const as = (cmd, args) => (owner ? ["runuser", ["-u", owner.user, "--", cmd, ...args]] : [cmd, args]);
  const run = (cmd, args) => {
    const [c, a] = as(path.join(bin, cmd), args);
    const r = spawnSync(c, a, { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C"]);
  const port = await freePort();
  const opts = [`-c listen_addresses=127.0.0.1`, `-p ${port}`, `-k ${dir}`, `-c fsync=off`,
    `-c synchronous_commit=off`, `-c full_page_writes=off`, `-c max_connections=${maxConnections}`].join(" ");
  run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", opts, "-w", "-t", "60", "start"]);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once("exit", stop);
  return { url: `postgresql://postgres@127.0.0.1:${port}/postgres`, dir, stop };
}
