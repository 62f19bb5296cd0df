import { db } from "../db";
import { onDeviceEvent } from "./device-events-bus";

export type DeviceOutcome = "approved" | "rejected" | "mismatch" | "expired" | "waiting";

interface Waiter {
  resolve: (outcome: DeviceOutcome) => void;
}

/** Poll period of the shared watcher. */
const TICK_MS = 500;
/** Ids per query (well under SQLite's bound-parameter limit). */
const CHUNK = 500;

const waiters = new Map<string, Set<Waiter>>();
let ticker: NodeJS.Timeout | undefined;
/** Answer notifications (any instance, lib/out-of-band/device-events-bus.ts) wake the watcher at once. */
let unsubscribe: (() => void) | undefined;

/**
 * Resolves when the handset answers DeviceRequest `id` (`approved` / `rejected`, or `mismatch`: the
 * check code typed did not match), when it expires
 * (`expired`, and the row is marked so), or with `waiting` when `maxMs` passes or `signal` aborts
 * (the client went away) first.
 *
 * Holding thousands of requests must stay cheap: each waiter is one closure and one timer (its
 * bound); a single process-wide ticker polls every 500 ms with one query per 500 waiting ids,
 * instead of one query per waiter, and stops when nobody waits.
 */
export function waitForAnswer({ id, maxMs, signal }: { id: string; maxMs: number; signal?: AbortSignal }):
  Promise<DeviceOutcome> {
  if (signal?.aborted) return Promise.resolve("waiting");
  return new Promise((resolve) => {
    const waiter: Waiter = { resolve: done };
    const timer = setTimeout(() => done("waiting"), maxMs);
    const onAbort = () => done("waiting");
    signal?.addEventListener("abort", onAbort, { once: true });
    function done(outcome: DeviceOutcome) {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      const set = waiters.get(id);
      set?.delete(waiter);
      if (set?.size === 0) waiters.delete(id);
      resolve(outcome);
    }
    let set = waiters.get(id);
    if (!set) waiters.set(id, (set = new Set()));
    set.add(waiter);
    ticker ??= setInterval(() => void tick(), TICK_MS);
    unsubscribe ??= onDeviceEvent((e) => {
      if (e.kind === "answered" && waiters.has(e.requestId)) void tick(true);
    });
  });
}

/** Number of requests currently held (for tests and measurements). */
export function waitingCount(): number {
  return waiters.size;
}

let ticking = false;
let rerun = false;

async function tick(woken = false) {
  if (waiters.size === 0) {
    clearInterval(ticker);
    ticker = undefined;
    unsubscribe?.();
    unsubscribe = undefined;
    return;
  }
  if (ticking) {
    if (woken) rerun = true; // an answer arrived during a poll: poll again right after it
    return; // a slow database never piles up overlapping polls
  }
  ticking = true;
  try {
    const ids = [...waiters.keys()];
    const now = new Date();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await db.deviceRequest.findMany({
        where: { id: { in: ids.slice(i, i + CHUNK) }, OR: [{ status: { not: "pending" } }, { expiresAt: { lte: now } }] },
        select: { id: true, status: true },
      });
      for (const row of rows) settle(row.id, await outcomeOf(row, now));
    }
  } catch {
    // a failed poll is retried on the next tick; the waiters' own bounds still apply
  } finally {
    ticking = false;
  }
  if (rerun) {
    rerun = false;
    void tick();
  }
}

/** What a DeviceRequest's status means for the waiting browser; null while it is still pending. */
export function settledOutcome(status: string): Exclude<DeviceOutcome, "waiting"> | null {
  if (status === "approved" || status === "rejected" || status === "mismatch") return status;
  return status === "pending" ? null : "expired";
}

async function outcomeOf(row: { id: string; status: string }, now: Date): Promise<DeviceOutcome> {
  const settled = settledOutcome(row.status);
  if (settled) return settled;
  const marked = await db.deviceRequest.updateMany({ where: { id: row.id, status: "pending", expiresAt: { lte: now } },
    data: { status: "expired" } });
  // answered in between: the next tick reads the answer
  return marked.count === 1 ? "expired" : "waiting";
}

function settle(id: string, outcome: DeviceOutcome) {
  if (outcome === "waiting") return;
  for (const waiter of [...(waiters.get(id) ?? [])]) waiter.resolve(outcome);
}
