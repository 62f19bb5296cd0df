import { logger } from "../log";
import { recordNotification } from "../metrics/record";

/**
 * The delivery of a durable outbox to relying parties (docs/logout.md back-channel logout, docs/ciba.md CIBA ping
 * and push): what every outbox table shares. A row is claimed with one conditional UPDATE (its attempts counted and
 * a lease set, so several instances never send the same attempt twice), sent once, then recorded: delivered
 * (`deliveredAt`), given up (`failedAt`: a refusal retrying cannot mend, or the last attempt), or retried after a
 * backoff (`nextAttemptAt`), with `lastStatus`/`lastError` each time.
 */
export interface OutboxRow {
  id: string;
  clientId: string;
  attempts: number;
}

/** Attempts and backoff of one outbox: attempt n+1 waits firstRetryMs × factor^(n-1) after attempt n failed. */
export interface RetryPolicy {
  maxAttempts: number;
  firstRetryMs: number;
  factor: number;
}

/** The wait after the `attempt`-th failed attempt (1-based). */
export function retryDelay(policy: RetryPolicy, attempt: number): number {
  return policy.firstRetryMs * policy.factor ** (attempt - 1);
}

/** How long a claimed row is reserved for the instance sending it (covers the POST's timeout and the minting). */
export const LEASE_MS = 30_000;

export type Outcome =
  | { delivered: true; status?: number }
  | { delivered: false; final: boolean; status?: number; error: string };

/** The `where` of the due rows and of a claim, and the columns a claim and a result write (each outbox table has them). */
export interface DueWhere { nextAttemptAt: { lte: Date }; deliveredAt: null; failedAt: null }
/** The due rows, without those of the clients that have PER_CLIENT_IN_FLIGHT attempts in flight. */
export interface FindDueWhere extends DueWhere { clientId?: { notIn: string[] } }
export interface ClaimWhere extends DueWhere { id: string; attempts: number }
export interface ClaimData { attempts: { increment: 1 }; nextAttemptAt: Date }
export interface ResultData {
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt?: Date;
  failedAt?: Date;
  nextAttemptAt?: Date;
}

/** One outbox table and how its rows are sent. */
export interface Outbox<Row extends OutboxRow> {
  /** For the logs: what is not delivered (e.g. "back-channel logout notification"). */
  label: string;
  /** The `kind` label of ois_backchannel_notifications_total (ciba_ping, ciba_push, logout; default other). */
  metricKind?(row: Row): string;
  policy: RetryPolicy;
  findDue(where: FindDueWhere, take: number): Promise<Row[]>;
  claim(where: ClaimWhere, data: ClaimData): Promise<{ count: number }>;
  /** Writes an attempt's result, only while the attempt still holds the row (`attempts` as claimed). */
  record(where: { id: string; attempts: number }, data: ResultData): Promise<unknown>;
  /** Sends the `attempt`-th attempt (1-based) of a claimed row; never throws (a failure is an Outcome). */
  send(row: Row, attempt: number): Promise<Outcome>;
  /** After a row is given up (e.g. revoke what the attempts issued). */
  onGiveUp?(row: Row): Promise<void>;
}

/**
 * At most this many attempts of one outbox to one client are in flight in a process at a time: a client whose
 * endpoint hangs (or that has many rows due) holds at most these slots, never everyone's. Its other due rows are
 * skipped (they stay due) until one of its attempts ends.
 */
export const PER_CLIENT_IN_FLIGHT = 2;

/** Attempts in flight per outbox (its label) and client, in this process (one map whichever bundle loads this module). */
function inFlightOf(label: string): Map<string, number> {
  const registry = globalThis as unknown as Record<symbol, Map<string, Map<string, number>> | undefined>;
  const all = (registry[Symbol.for("outbox-in-flight-per-client")] ??= new Map());
  let map = all.get(label);
  if (!map) all.set(label, (map = new Map()));
  return map;
}

/** Rounds of finding due rows in one pass: each round after the first excludes at least one more saturated client. */
const FIND_ROUNDS = 4;

/**
 * Claims up to `take` due rows and starts their attempts; returns the attempts (each resolves once its result is
 * recorded, true when this instance made it). The caller decides whether to wait for them. At most
 * PER_CLIENT_IN_FLIGHT attempts per client are in flight: the rows of a client at its limit are not read (`clientId
 * notIn`), and of the rows read, a client's beyond its limit are skipped; when that left capacity unused, the due rows
 * are read again without the clients now at their limit (a few rounds at most).
 */
export async function startDue<Row extends OutboxRow>(outbox: Outbox<Row>, { now = new Date(), take }: {
  now?: Date; take: number;
}): Promise<Array<Promise<boolean>>> {
  if (take <= 0) return [];
  const dueWhere: DueWhere = { nextAttemptAt: { lte: now }, deliveredAt: null, failedAt: null };
  const inFlight = inFlightOf(outbox.label);
  const saturated = () => [...inFlight].filter(([, n]) => n >= PER_CLIENT_IN_FLIGHT).map(([clientId]) => clientId);
  const due: Row[] = [];
  for (let round = 0; round < FIND_ROUNDS && due.length < take; round++) {
    const full = saturated();
    const rows = await outbox.findDue(full.length ? { ...dueWhere, clientId: { notIn: full } } : dueWhere,
      take - due.length);
    let skipped = false;
    for (const row of rows) {
      const n = inFlight.get(row.clientId) ?? 0;
      if (n >= PER_CLIENT_IN_FLIGHT) {
        skipped = true;
        continue;
      }
      inFlight.set(row.clientId, n + 1);
      due.push(row);
    }
    if (!skipped) break; // every row read was taken: fewer are due than the capacity, or the capacity is used
  }
  return due.map((row) => attemptRow(outbox, row, dueWhere, now).finally(() => {
    const n = (inFlight.get(row.clientId) ?? 1) - 1;
    if (n > 0) inFlight.set(row.clientId, n);
    else inFlight.delete(row.clientId);
  }));
}

async function attemptRow<Row extends OutboxRow>(outbox: Outbox<Row>, row: Row, dueWhere: DueWhere, now: Date):
  Promise<boolean> {
  const claimed = await outbox.claim({ id: row.id, attempts: row.attempts, ...dueWhere },
    { attempts: { increment: 1 }, nextAttemptAt: new Date(now.getTime() + LEASE_MS) });
  if (claimed.count !== 1) return false;
  const attempt = row.attempts + 1;
  const outcome = await outbox.send(row, attempt).catch((err: unknown): Outcome => ({ delivered: false, final: false,
    error: describeError(err) }));
  const at = new Date();
  if (outcome.delivered) {
    await outbox.record({ id: row.id, attempts: attempt }, { deliveredAt: at, lastStatus: outcome.status ?? null,
      lastError: null });
    recordNotification(outbox.metricKind?.(row) ?? "other", "delivered");
    return true;
  }
  const giveUp = outcome.final || attempt >= outbox.policy.maxAttempts;
  await outbox.record({ id: row.id, attempts: attempt }, {
    lastStatus: outcome.status ?? null, lastError: outcome.error.slice(0, 200),
    ...(giveUp ? { failedAt: at } : { nextAttemptAt: new Date(at.getTime() + retryDelay(outbox.policy, attempt)) }),
  });
  recordNotification(outbox.metricKind?.(row) ?? "other", giveUp ? "failed" : "retry");
  if (giveUp && outbox.onGiveUp) await outbox.onGiveUp(row);
  logger.warn({ clientId: row.clientId, attempt, status: outcome.status, error: outcome.error, gaveUp: giveUp },
    `${outbox.label} not delivered`);
  return true;
}

/** Claims and sends the due rows (at most `take`) and waits for every attempt; returns how many were attempted. */
export async function deliverDue<Row extends OutboxRow>(outbox: Outbox<Row>, { now, take = 20 }: {
  now?: Date; take?: number;
} = {}): Promise<number> {
  const attempts = await Promise.all(await startDue(outbox, { now, take }));
  return attempts.filter(Boolean).length;
}

export function describeError(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : "error";
}

/**
 * A worker of the server process (started by instrumentation.ts): every `pollMs`, and at once on kick(), runs
 * `pass(capacity)`, which claims up to `capacity` rows and returns their attempts. Passes never overlap, but a pass
 * does not wait for its attempts: a slow or hanging relying party holds one of `maxInFlight` slots for at most its
 * timeout, never the worker or any request. The timer is unref'd; a failed pass (database briefly unavailable) is
 * logged and retried at the next tick.
 */
export function outboxWorker(opts: {
  label: string; pollMs?: number; maxInFlight?: number;
  pass: (capacity: number) => Promise<Array<Promise<unknown>>>;
}): OutboxWorker {
  // One worker per label and process: the server bundle (server/main.ts) and Next.js's bundles each load this module,
  // and a kick from any of them must reach the worker instrumentation.ts started.
  const registry = globalThis as unknown as Record<symbol, OutboxWorker | undefined>;
  const key = Symbol.for(`outbox-worker:${opts.label}`);
  return (registry[key] ??= createWorker(opts));
}

export interface OutboxWorker {
  /** Starts the timer (once per process). */
  start(): void;
  /**
   * Runs now when the worker runs in this process; elsewhere (the admin CLI) the queued rows wait for a server's
   * next poll, so a short-lived process never holds up on a slow relying party.
   */
  kick(): void;
}

function createWorker({ label, pollMs = 2_000, maxInFlight = 20, pass }: {
  label: string; pollMs?: number; maxInFlight?: number;
  pass: (capacity: number) => Promise<Array<Promise<unknown>>>;
}): OutboxWorker {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let inFlight = 0;
  function run(): void {
    if (running) {
      again = true;
      return;
    }
    running = true;
    pass(maxInFlight - inFlight)
      .then((attempts) => {
        for (const attempt of attempts) {
          inFlight++;
          void attempt.catch((err: unknown) => logger.warn({ err }, `${label} failed`)).finally(() => { inFlight--; });
        }
      })
      .catch((err: unknown) => logger.warn({ err }, `${label} failed; retried at the next poll`))
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          run();
        }
      });
  }
  return {
    start(): void {
      if (timer) return;
      timer = setInterval(run, pollMs);
      timer.unref();
    },
    kick(): void {
      if (timer) run();
    },
  };
}
