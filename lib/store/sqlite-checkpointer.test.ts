import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { startCheckpointer } from "./sqlite-checkpointer";
import { SqliteStore } from "./sqlite-store";

// WAL checkpoints in a worker thread: the hot connection stops checkpointing inside its commits only
// while the worker runs, and the worker really moves the committed pages into the database file.
const dir = mkdtempSync(path.join(tmpdir(), "checkpointer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function newDatabase(name: string) {
  const file = path.join(dir, name);
  const setup = new Database(file);
  setup.pragma("journal_mode = WAL");
  setup.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
  setup.close();
  return file;
}

/** Writes ~4 MB through a connection that never checkpoints itself (as the hot connection, once the worker runs). */
function writeWithoutCheckpoints(file: string) {
  const writer = new Database(file);
  writer.pragma("wal_autocheckpoint = 0");
  const insert = writer.prepare("INSERT INTO t (v) VALUES (?)");
  for (let i = 0; i < 1000; i++) insert.run("x".repeat(4000));
  writer.close(); // closing a connection would checkpoint if it were the last one: the store's stays open
}

const until = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
};

describe("WAL checkpoints off the event loop", () => {
  it("the worker checkpoints every committed page while the hot connection's automatic checkpoint is off", async () => {
    const file = newDatabase("a.db");
    const events: Array<{ log: number; checkpointed: number }> = [];
    const store = new SqliteStore(file, 1000, { checkpointIntervalMs: 50, onCheckpoint: (e) => events.push(e) });
    expect(store.autoCheckpointPages()).toBe(1000);
    expect(await store.checkpointer!.ready).toBe(true);
    expect(store.autoCheckpointPages()).toBe(0);

    const before = statSync(file).size;
    writeWithoutCheckpoints(file);
    // Only a checkpoint copies pages from the WAL into the database file.
    expect(await until(() => statSync(file).size > before + 3_000_000)).toBe(true);
    // A checkpoint after the last write has moved every frame of the WAL.
    expect(await until(() => events.some((e) => e.checkpointed > 0 && e.checkpointed === e.log))).toBe(true);

    await store.close();
    const check = new Database(file, { readonly: true });
    expect(check.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 1000 });
    check.close();
  });

  it("without the worker the pages stay in the WAL (the control for the test above)", async () => {
    const file = newDatabase("b.db");
    const store = new SqliteStore(file, 1000);
    expect(store.checkpointer).toBeUndefined();
    const before = statSync(file).size;
    writeWithoutCheckpoints(file);
    await new Promise((r) => setTimeout(r, 300));
    expect(statSync(file).size).toBe(before);
    await store.close();
  });

  it("stopping the worker turns the hot connection's automatic checkpoint back on", async () => {
    const file = newDatabase("c.db");
    const store = new SqliteStore(file, 1000, { checkpointIntervalMs: 50 });
    expect(await store.checkpointer!.ready).toBe(true);
    expect(store.autoCheckpointPages()).toBe(0);
    await store.checkpointer!.stop();
    expect(store.autoCheckpointPages()).toBe(1000);
    await store.close();
  });

  it("a worker that dies is started again; meanwhile SQLite's automatic checkpoint is on", async () => {
    const file = newDatabase("e.db");
    const store = new SqliteStore(file, 1000, { checkpointIntervalMs: 50, checkpointRestartMs: 300 });
    const first = store.checkpointer!;
    expect(await first.ready).toBe(true);
    await first.worker.terminate();
    expect(store.autoCheckpointPages()).toBe(1000);
    expect(await until(() => store.checkpointer !== first)).toBe(true);
    expect(await store.checkpointer!.ready).toBe(true);
    expect(store.autoCheckpointPages()).toBe(0);
    await store.close();
  });

  it("a worker that cannot open the database never becomes active and reports the error", async () => {
    const states: boolean[] = [];
    const errors: unknown[] = [];
    const checkpointer = startCheckpointer(path.join(dir, "missing.db"), {
      intervalMs: 50, onActive: (active) => states.push(active), onError: (err) => errors.push(err),
    });
    expect(await checkpointer.ready).toBe(false);
    expect(states).toEqual([]);
    expect(String(errors[0])).toMatch(/directory does not exist|unable to open/i);
    await checkpointer.stop();
  });

  it("never keeps a process alive: a command that opened the store ends when its work is done", () => {
    const file = newDatabase("f.db");
    const script = path.join(process.cwd(), ".tmp", `checkpointer-exit-${process.pid}.ts`);
    writeFileSync(script, `import { SqliteStore } from ${JSON.stringify(path.join(process.cwd(), "lib/store/sqlite-store"))};
const store = new SqliteStore(${JSON.stringify(file)}, 1000, { checkpointIntervalMs: 50 });
console.log("ready", await store.checkpointer!.ready);
`);
    try {
      const r = spawnSync(path.join(process.cwd(), "node_modules", ".bin", "tsx"), [script], { encoding: "utf8", timeout: 20_000 });
      expect(r.stdout.trim(), r.stderr).toBe("ready true");
      expect(r.status).toBe(0); // killed by the timeout (status null) if the worker held the event loop
    } finally {
      rmSync(script, { force: true });
    }
  });
});

describe("the checkpoint worker under load", () => {
  it("runs below the event loop's priority (Linux nice, per thread)", async () => {
    const file = newDatabase("g.db");
    const store = new SqliteStore(file, 1000, { checkpointIntervalMs: 50 });
    expect(await store.checkpointer!.ready).toBe(true);
    const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    const main = niceOf(readFileSync("/proc/thread-self/stat", "utf8"));
    expect(store.checkpointer!.threadNice).toBe(Math.min(19, main + 10));
    // The thread really runs so: one thread of this process has that nice value.
    const threads = readdirSync("/proc/self/task").map((tid) => niceOf(readFileSync(`/proc/self/task/${tid}/stat`, "utf8")));
    expect(threads).toContain(Math.min(19, main + 10));
    await store.close();
  });

  /** Writes `mb` MB without a pause while the worker checkpoints; returns the WAL file's largest size seen. */
  async function sustainedWrites(walRestartPages: number, mb: number) {
    const file = newDatabase(`load-${walRestartPages}.db`);
    const store = new SqliteStore(file, 1000, { checkpointIntervalMs: 20, walRestartPages });
    expect(await store.checkpointer!.ready).toBe(true);
    const writer = new Database(file);
    writer.pragma("wal_autocheckpoint = 0");
    const insert = writer.prepare("INSERT INTO t (v) VALUES (?)");
    let largest = 0;
    for (let i = 0; i < mb * 250; i++) {
      insert.run("x".repeat(4000));
      // A short breath now and then lets the worker's timer run, never long enough for it to catch up.
      if (i % 50 === 0) {
        largest = Math.max(largest, statSync(`${file}-wal`).size);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
      }
    }
    writer.close();
    await store.close();
    return largest;
  }

  it("restarts a WAL that sustained writes keep past walRestartPages, so the file stays bounded", async () => {
    // 48 MB of rows, restart past 256 pages (1 MB): the WAL starts over again and again (seen: 4.4 MB
    // at most; the control below: 150 MB).
    expect(await sustainedWrites(256, 48)).toBeLessThan(24 * 1024 * 1024);
  }, 60_000);

  it("without the restart the same writes grow the WAL by all they wrote (the control for the test above)", async () => {
    expect(await sustainedWrites(1_000_000_000, 48)).toBeGreaterThan(40 * 1024 * 1024);
  }, 60_000);
});
