import { EventEmitter } from "node:events";
import pg from "pg";
import { config } from "../config";
import { logger as log } from "../log";
import { broadcast, onBroadcast } from "../cluster/broadcast";

/**
 * A device request was created for a subscriber's handset, or answered on it. Carries ids only: the
 * receivers read the state from the database (the notification is a hint to look now, never data).
 */
export interface DeviceEvent {
  kind: "created" | "answered";
  subscriberId: string;
  requestId: string;
}

/** The PostgreSQL channel (LISTEN/NOTIFY) every instance of one database shares. */
const CHANNEL = "device_events";
/** A lost LISTEN connection is re-opened after this long (the receivers' polling covers the gap). */
const RECONNECT_MS = 2_000;
/** The cluster broadcast topic (lib/cluster/broadcast.ts) of the SQLite case. */
const BROADCAST_TOPIC = "device-event";

/**
 * Kept on globalThis: the lean server's bundle and Next.js's route handlers each carry a copy of this
 * module, and a request created or answered in one must reach the waits and streams of the other.
 */
const shared = globalThis as unknown as { __deviceEvents?: { local: EventEmitter; state: { pool?: unknown; listener?: unknown } } };
if (!shared.__deviceEvents) {
  const emitter = new EventEmitter();
  shared.__deviceEvents = { local: emitter, state: {} };
  // SQLite with several workers on one machine (server/cluster.ts): the other workers' events come over the cluster
  // IPC channel (registered once per process, whichever bundle loads first; never called outside a cluster).
  onBroadcast(BROADCAST_TOPIC, (e) => { if (!onPostgres()) emitter.emit("event", e as DeviceEvent); });
}
const local = shared.__deviceEvents.local;
local.setMaxListeners(0); // one listener per open handset stream / waiting /authorize is expected
const state = shared.__deviceEvents.state as { pool?: InstanceType<typeof pg.Pool>; listener?: Promise<Listener | undefined> };

interface Listener {
  query(sql: string, values?: unknown[]): Promise<unknown>;
  release(err?: Error | boolean): void;
  on(event: "notification", fn: (msg: { channel: string; payload?: string }) => void): unknown;
  on(event: "error" | "end", fn: (err?: Error) => void): unknown;
}


function onPostgres(): boolean {
  return /^postgres(ql)?:\/\//.test(config().DATABASE_URL);
}

/** The process's one LISTEN connection (PostgreSQL only), opened on first use, re-opened when lost. */
function connectListener(): Promise<Listener | undefined> {
  state.listener ??= (async () => {
    // Named, so operators (and the two-instance test) can see one listener per instance in pg_stat_activity.
    const url = new URL(config().DATABASE_URL);
    url.searchParams.set("application_name", "device-events");
    if (!state.pool) {
      state.pool = new pg.Pool({ connectionString: url.toString(), max: 1, connectionTimeoutMillis: 5_000 });
      state.pool.on("error", () => undefined); // a dropped idle connection; `lost` below reconnects
    }
    try {
      const client = (await state.pool.connect()) as unknown as Listener;
      let gone = false;
      const lost = (err?: Error) => {
        if (gone) return;
        gone = true;
        log.warn({ err: err?.message }, "device events: LISTEN connection lost, polling only until it is back");
        client.release(true);
        state.listener = undefined;
        setTimeout(() => void connectListener(), RECONNECT_MS).unref();
      };
      client.on("error", lost);
      client.on("end", lost);
      client.on("notification", (msg) => {
        if (msg.channel !== CHANNEL || !msg.payload) return;
        try {
          local.emit("event", JSON.parse(msg.payload) as DeviceEvent);
        } catch {
          /* not ours */
        }
      });
      await client.query(`LISTEN ${CHANNEL}`);
      return client;
    } catch (err) {
      log.warn({ err: (err as Error).message }, "device events: cannot LISTEN, polling only");
      state.listener = undefined;
      return undefined;
    }
  })();
  return state.listener;
}

/**
 * Tells every instance that a device request changed (after the write committed). In-process
 * receivers hear it at once; on PostgreSQL it goes out with NOTIFY, so a handset connected to
 * instance A sees a request created on instance B, and a `prompt=mobile` wait on A wakes when the
 * handset answered on B. Never throws: the receivers also poll the database, so a lost notification
 * only costs latency.
 */
export function publishDeviceEvent(event: DeviceEvent): void {
  if (!onPostgres()) {
    // SQLite: one machine; its other workers hear it over the cluster IPC channel (a no-op with WORKERS=1).
    local.emit("event", event);
    broadcast(BROADCAST_TOPIC, event);
    return;
  }
  // Delivered back to this instance through its own LISTEN (PostgreSQL notifies the sender too).
  void connectListener()
    .then((client) => (client ? client.query("SELECT pg_notify($1, $2)", [CHANNEL, JSON.stringify(event)]) : local.emit("event", event)))
    .catch(() => local.emit("event", event));
}

/** Calls `fn` for every device event of this database; returns the unsubscribe function. */
export function onDeviceEvent(fn: (event: DeviceEvent) => void): () => void {
  if (onPostgres()) void connectListener();
  local.on("event", fn);
  return () => void local.off("event", fn);
}
