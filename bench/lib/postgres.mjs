// The benchmark's throw-away PostgreSQL cluster (as scripts/pg-cluster.mjs starts one for the tests: initdb into a
// temporary directory, 127.0.0.1 and a free port only, trust authentication, fsync off since the data is thrown away,
// removed at the end), plus pg_stat_statements where the server has it, to count statements on the server side.
// Under root the cluster belongs to the `postgres` user (initdb refuses root).
import { spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { findPostgresBin } from "../../scripts/pg-cluster.mjs";
import { createDatabase, migratePostgres } from "../../scripts/migrate-postgres.mjs";
import { freePort } from "./processes.mjs";

export { findPostgresBin };

function owner() {
  if (process.getuid?.() !== 0) return undefined;
  const u = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  if (u.status !== 0) throw new Error("running as root and there is no `postgres` user to own the cluster");
  return { user: "postgres", uid: Number(u.stdout.trim()), gid: Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim()) };
}

/**
 * Starts the cluster; `core` pins the postmaster (and so every backend it forks) with taskset. Resolves with the admin
 * URL, the postmaster's pid (its process tree is the database server: CPU from /proc), whether pg_stat_statements is
 * loaded, and stop(). Throws when PostgreSQL is not installed.
 */
export async function startBenchPostgres({ core = null, log = () => {} } = {}) {
  const bin = findPostgresBin();
  if (!bin) throw new Error("PostgreSQL is not installed (no initdb on PATH or under /usr/lib/postgresql)");
  const who = owner();
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-pg-"));
  if (who) chownSync(dir, who.uid, who.gid);
  const run = (cmd, args, { check = true } = {}) => {
    const full = path.join(bin, cmd);
    const [c, a] = who ? ["runuser", ["-u", who.user, "--", full, ...args]] : [full, args];
    const r = spawnSync(c, a, { cwd: dir, encoding: "utf8" });
    if (check && r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
    return r;
  };
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C"]);
  const port = await freePort();
  const base = [`-c listen_addresses=127.0.0.1`, `-p ${port}`, `-k ${dir}`, `-c fsync=off`, `-c synchronous_commit=off`,
    `-c full_page_writes=off`, `-c max_connections=200`];
  let statStatements = true;
  let r = run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o",
    [...base, "-c shared_preload_libraries=pg_stat_statements", "-c pg_stat_statements.track=all"].join(" "), "-w", "-t", "60", "start"],
  { check: false });
  if (r.status !== 0) {
    statStatements = false;
    log("PostgreSQL without pg_stat_statements (not installed?): statements are counted in-process instead");
    r = run("pg_ctl", ["-D", data, "-l", path.join(dir, "log"), "-o", base.join(" "), "-w", "-t", "60", "start"]);
  }
  const pid = Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  if (core !== null && core !== undefined) spawnSync("taskset", ["-a", "-p", "-c", String(core), String(pid)]);
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"], { check: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  process.once("exit", stop);
  const version = (spawnSync(path.join(bin, "postgres"), ["--version"], { encoding: "utf8" }).stdout ?? "").trim();
  return { adminUrl, pid, port, core, statStatements, version, stop };
}

/** A fresh database on the cluster, migrated with scripts/migrate-postgres.mjs; with pg_stat_statements created. */
export async function freshPostgresDatabase(cluster, name) {
  const url = await createDatabase(cluster.adminUrl, name);
  await migratePostgres(url, { log: () => {} });
  if (cluster.statStatements) await query(url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  return url;
}

async function query(url, sql) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

/** Clears pg_stat_statements (the whole cluster's). */
export async function resetStatements(url) {
  await query(url, "SELECT pg_stat_statements_reset()");
}

/**
 * Statements executed on database `url` since the last reset (pg_stat_statements' calls, utility statements such as
 * BEGIN/COMMIT included), by kind, without the harness's own queries on it.
 */
export async function readStatements(url) {
  const rows = await query(url, `SELECT s.query, s.calls::bigint AS calls FROM pg_stat_statements s
    JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()`);
  const byKind = {};
  let total = 0;
  for (const r of rows) {
    if (/pg_stat_statements/.test(r.query)) continue;
    const kind = /^\s*(\w+)/.exec(r.query)?.[1]?.toUpperCase() ?? "?";
    byKind[kind] = (byKind[kind] ?? 0) + Number(r.calls);
    total += Number(r.calls);
  }
  return { total, byKind };
}
