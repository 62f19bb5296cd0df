import { Worker } from "node:worker_threads";

/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that
 * pushes the WAL past 1000 pages, in the connection that committed: on the hot-path connection it
 * copies the pages back into the database file and fsyncs it while every request waits (measured:
 * /token p99 23.6 ms with it, 8.3 ms without, at concurrency 1). Here a worker thread with a
 * connection of its own runs `PRAGMA wal_checkpoint(PASSIVE)` every `intervalMs`; PASSIVE never waits
 * for or blocks readers and writers. The hot connection turns its own automatic checkpoint off only
 * once the worker has checkpointed once, and turns it back on if the worker stops, so the WAL can
 * never grow without a checkpointer. Durability is unchanged: checkpoints only move committed pages.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
// Errors cross to the main thread as a message: a thrown SqliteError arrives there without its text.
const fail = (err) => {
  parentPort.postMessage({ type: "error", message: String((err && err.message) || err), code: err && err.code });
  process.exit(1);
};
let db;
try {
  const Database = createRequire(workerData.requireFrom)("better-sqlite3");
  db = new Database(workerData.file, { timeout: 0, fileMustExist: true });
} catch (err) {
  fail(err);
}
const pause = new Int32Array(new SharedArrayBuffer(4));
const checkpoint = () => {
  try {
    let [row] = db.pragma("wal_checkpoint(PASSIVE)");
    // SQLite starts the WAL over only when a writer finds every frame checkpointed: under sustained
    // writes a PASSIVE checkpoint never gets there (new frames keep arriving) and the file grows
    // without bound (measured: 2.2 GB in 40 s at full load). Past restartPages, RESTART copies the
    // few frames written meanwhile holding the write lock, so the next writer starts the WAL from its
    // beginning: the file keeps its size and is written over. (No journal_size_limit: the writer that
    // starts the WAL over would truncate it at its next commit, on the event loop: 60-70 ms stalls
    // measured for a 256 MB file.) With no busy timeout it takes the lock only
    // when it is free at once, retried every 0.5 ms: a busy handler would sleep up to 100 ms at a time
    // holding the lock, and the writers held back would stall for as long (measured: p99.9 48 ms).
    for (let i = 0; row && row.log > workerData.restartPages && i < 40; i++) {
      const [restarted] = db.pragma("wal_checkpoint(RESTART)");
      if (restarted && restarted.busy === 0) return restarted;
      Atomics.wait(pause, 0, 0, 0.5);
    }
    return row;
  } catch (err) {
    // SQLITE_BUSY: another connection is checkpointing: try again next time.
    if (String(err && err.code).startsWith("SQLITE_BUSY")) return undefined;
    fail(err);
  }
};
// Below the event loop's priority: on one core the checkpoint's page copies would otherwise take half
// of it from the requests for as long as they run. Linux applies nice per thread, and
// /proc/thread-self names this one; elsewhere (or if refused) the thread keeps the process's priority.
let nice = null;
if (workerData.niceIncrement > 0) {
  try {
    const os = require("node:os");
    const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
    os.setPriority(tid, Math.min(19, os.getPriority(tid) + workerData.niceIncrement));
    nice = os.getPriority(tid);
  } catch {}
}
checkpoint();
parentPort.postMessage({ type: "ready", nice });
const timer = setInterval(() => {
  const row = checkpoint();
  if (row && workerData.report) parentPort.postMessage({ type: "checkpoint", log: row.log, checkpointed: row.checkpointed });
}, workerData.intervalMs);
parentPort.on("message", (m) => {
  if (m === "stop") {
    clearInterval(timer);
    checkpoint();
    db.close();
    parentPort.close();
  }
});
`;

/**
 * A WAL past this many pages (256 MB) is restarted; without full load it starts over by itself after
 * each checkpoint and this never runs. Not lower: every restart holds the writers back for a moment,
 * and at 4,096 or 16,384 pages the full flow's p99 at concurrency 8 rose from 12 to 22 and 13 ms
 * (measured while the hot connection still had a journal_size_limit, see above).
 */
export const RESTART_PAGES = 65_536;

export type CheckpointEvent = { log: number; checkpointed: number };

export type Checkpointer = {
  /** Resolves true once the worker runs (the hot connection's automatic checkpoint is then off). */
  readonly ready: Promise<boolean>;
  /** The worker thread's nice value once it runs (null: unchanged, as off Linux). */
  readonly threadNice: number | null;
  /** The thread itself (tests end it abruptly to play a crash). */
  readonly worker: Worker;
  /** Checkpoints once more and ends the worker; the hot connection's automatic checkpoint is back on. */
  stop(): Promise<void>;
};

export function startCheckpointer(file: string, options: {
  intervalMs: number;
  /** Called once the worker checkpoints (true) and when it stops or fails (false). */
  onActive: (active: boolean) => void;
  onCheckpoint?: (e: CheckpointEvent) => void;
  /** How far below the process's priority the worker thread runs (nice increment, Linux; 0: same). */
  niceIncrement?: number;
  /** WAL size (pages) past which a checkpoint also restarts the WAL (default RESTART_PAGES). */
  restartPages?: number;
  onError?: (err: unknown) => void;
  /** The worker ended without stop() (it failed, or was terminated). */
  onFailure?: () => void;
}): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs: options.intervalMs, report: !!options.onCheckpoint, requireFrom: `${process.cwd()}/package.json`,
      niceIncrement: options.niceIncrement ?? 10, restartPages: options.restartPages ?? RESTART_PAGES },
  });
  let settle!: (ok: boolean) => void;
  const ready = new Promise<boolean>((resolve) => (settle = resolve));
  let active = false;
  let stopping = false;
  let threadNice: number | null = null;
  worker.on("message", (m: { type: string; message?: string; code?: string; nice?: number | null } & CheckpointEvent) => {
    if (m.type === "error") options.onError?.(Object.assign(new Error(`WAL checkpoint worker: ${m.message}`), { code: m.code }));
    else if (m.type === "ready") {
      // From now on the worker must not keep the process alive (a server's shutdown, a command's
      // end). Not before: a short-lived process then waits the few ms the worker needs to start. And
      // not at creation: adding the 'message' listener refs the worker again.
      worker.unref();
      threadNice = m.nice ?? null;
      active = true;
      options.onActive(true);
      settle(true);
    } else if (m.type === "checkpoint") options.onCheckpoint?.({ log: m.log, checkpointed: m.checkpointed });
  });
  const ended = new Promise<void>((resolve) => {
    const end = () => {
      if (active) options.onActive(false);
      active = false;
      settle(false);
      resolve();
      if (!stopping) options.onFailure?.();
    };
    worker.on("error", (err) => {
      options.onError?.(err);
      end();
    });
    worker.on("exit", end);
  });
  return {
    ready,
    worker,
    get threadNice() { return threadNice; },
    async stop() {
      stopping = true;
      if (active) options.onActive(false);
      active = false;
      worker.postMessage("stop");
      const timeout = setTimeout(() => void worker.terminate(), 2000);
      await ended;
      clearTimeout(timeout);
    },
  };
}
