import cluster from "node:cluster";

/**
 * The cluster IPC channel between a worker and the primary (server/cluster.ts), for this project's own messages:
 * `{ ois: <kind>, ... }`. One `message` listener per process, kept on globalThis (Symbol.for): the Next.js
 * bundle and the lean server's bundle each load their own copy of lib/, and both must see every message once.
 * Outside a cluster worker (WORKERS=1, the CLI, the tests) there is no channel: `sendToPrimary` returns false.
 */
export type IpcMessage = { ois: string } & Record<string, unknown>;
type Handler = (m: IpcMessage) => void;
type State = { handlers: Map<string, Set<Handler>> };

const KEY = Symbol.for("operator-identity.cluster-ipc");

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

export function isIpcMessage(m: unknown): m is IpcMessage {
  return typeof m === "object" && m !== null && typeof (m as { ois?: unknown }).ois === "string";
}

function state(): State {
  const g = globalThis as unknown as Record<symbol, State | undefined>;
  let s = g[KEY];
  if (!s) {
    const created: State = { handlers: new Map() };
    s = g[KEY] = created;
    if (cluster.isWorker) {
      process.on("message", (m: unknown) => {
        if (!isIpcMessage(m)) return;
        for (const fn of created.handlers.get(m.ois) ?? []) fn(m);
      });
    }
  }
  return s;
}

/** Calls `fn` for each message of `kind` the primary sends this worker; returns the function that stops it. */
export function onIpc(kind: string, fn: Handler): () => void {
  const { handlers } = state();
  let set = handlers.get(kind);
  if (!set) handlers.set(kind, (set = new Set()));
  set.add(fn);
  return () => void set.delete(fn);
}

/** Sends `m` to the primary; false when this process is not a connected cluster worker. */
export function sendToPrimary(m: IpcMessage): boolean {
  if (!cluster.isWorker || !process.connected || !process.send) return false;
  state(); // the listener for the answers, before any can arrive
  process.send(m);
  return true;
}
