import Database from "better-sqlite3";
import type { AccessToken, AuthorizationCode, RefreshToken, Subscriber } from "@prisma/client";
import type { HotStore, InsertRow } from "./hot-store";
import type { LiveSession } from "../sessions/live-session";
import { completeRequestSql, insertSql, liveSessionsSql, splitTokenRow, SQL, toModel, withStatus } from "./sql";
import { isSqliteBusy } from "./is-sqlite-busy";
import { reportStatement } from "./statement-listener";
import { dbSpanSync, tracing } from "../tracing/spans";
import { context, type Context } from "@opentelemetry/api";
import { startCheckpointer, type Checkpointer, type CheckpointEvent } from "./sqlite-checkpointer";


/**
 * Prisma's SQLite storage format (@prisma/adapter-better-sqlite3, `timestampFormat` "iso8601"):
 * DateTime as ISO 8601 text with `+00:00` instead of `Z`, Boolean as 0/1. Text comparisons of
 * these strings order like the instants they denote, so `expiresAt > ?` works on the text.
 */
export function sqliteValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString().replace("Z", "+00:00");
  if (typeof v === "boolean") return v ? 1 : 0;
  return v ?? null;
}

function sqliteDate(v: unknown): Date | null {
  if (v === null || v === undefined) return null;
  // ISO text (Prisma), `YYYY-MM-DD HH:MM:SS` (a CURRENT_TIMESTAMP column default, UTC) or epoch ms.
  if (typeof v === "number" || typeof v === "bigint") return new Date(Number(v));
  const s = String(v);
  return new Date(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(s) ? `${s.replace(" ", "T")}Z` : s);
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The hot-path store on SQLite: a dedicated better-sqlite3 connection to Prisma's database file.
 * Statements are prepared once; the writes of one turn of the event loop commit together in one
 * synchronous transaction (group commit, `write`), so it never holds the write lock across an await. The connection's
 * busy timeout is 0 and a locked database is retried asynchronously (up to busyWaitMs): Prisma's
 * interactive transactions in this same process hold the lock across awaits, and a synchronous
 * busy wait would block the very event loop they need to commit.
 */
export class SqliteStore implements HotStore {
  readonly dialect = "sqlite" as const;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly rawStatements = new Map<string, { stmt: Database.Statement; names: string[] }>();
  /** The worker that checkpoints the WAL off the event loop (lib/store/sqlite-checkpointer.ts). */
  checkpointer?: Checkpointer;
  private closed = false;
  private queue: Array<{ body: () => boolean; resolve: (v: boolean) => void; reject: (e: unknown) => void; deadline: number;
    /** With traces on: the writer's context, so its statements are its request's children (lib/tracing). */
    ctx?: Context }> = [];
  private flushScheduled = false;

  /**
   * `busyWaitMs`: how long a statement waits for another connection's lock (lib/db.ts's bound).
   * `checkpointIntervalMs`: WAL checkpoints in a worker thread this often; 0 leaves them to SQLite's
   * automatic checkpoint inside a commit of this connection (SQLITE_CHECKPOINT_INTERVAL_MS). A worker
   * that fails is started again after `checkpointRestartMs`; meanwhile SQLite's own checkpoint is on.
   * `walRestartPages`: a WAL longer than this is restarted by the worker (lib/store/sqlite-checkpointer.ts).
   */
  constructor(private readonly file: string, private readonly busyWaitMs: number,
    private readonly options: {
      checkpointIntervalMs?: number; checkpointRestartMs?: number; walRestartPages?: number;
      onCheckpoint?: (e: CheckpointEvent) => void; onCheckpointerError?: (err: unknown) => void;
    } = {}) {
    // fileMustExist: a database file that has gone missing is an error (503), never re-created empty.
    this.db = new Database(file, { timeout: 0, fileMustExist: true });
    // WAL is persistent in the file (scripts/sqlite-wal.mjs sets it at deploy); synchronous=NORMAL
    // is what better-sqlite3 uses for WAL databases, and what Prisma's connection runs with: a commit
    // survives a crash of the process; the last ones may be lost on power loss (docs/operations.md, "Faults and recovery").
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    if ((options.checkpointIntervalMs ?? 0) > 0) this.startCheckpointer();
  }

  private startCheckpointer() {
    const { checkpointIntervalMs = 0, checkpointRestartMs = 5000, walRestartPages, onCheckpoint, onCheckpointerError } = this.options;
    this.checkpointer = startCheckpointer(this.file, {
      intervalMs: checkpointIntervalMs, restartPages: walRestartPages,
      onActive: (active) => {
        if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${active ? 0 : 1000}`);
      },
      onCheckpoint,
      onError: onCheckpointerError,
      onFailure: () => {
        if (!this.closed) setTimeout(() => { if (!this.closed) this.startCheckpointer(); }, checkpointRestartMs).unref();
      },
    });
  }

  /** This connection's automatic checkpoint threshold in pages (0 while the worker checkpoints). */
  autoCheckpointPages(): number {
    return this.db.pragma("wal_autocheckpoint", { simple: true }) as number;
  }

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * A read statement in raw mode (rows as arrays) with its column names: better-sqlite3 builds a row object
   * through V8's API one named property at a time, which for the 42 columns of the access token joined with
   * its subscriber cost more than the query itself; the same object built here from the array is about half.
   */
  private rawStmt(sql: string): { stmt: Database.Statement; names: string[] } {
    let r = this.rawStatements.get(sql);
    if (!r) {
      const stmt = this.db.prepare(sql).raw(true);
      r = { stmt, names: stmt.columns().map((c) => c.name) };
      this.rawStatements.set(sql, r);
    }
    return r;
  }

  private readRow(sql: string, args: unknown[]): Record<string, unknown> | undefined {
    const { stmt, names } = this.rawStmt(sql);
    const values = stmt.get(...args) as unknown[] | undefined;
    if (!values) return undefined;
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  }

  // With traces on (lib/tracing), each statement is a CLIENT span: db.system and the SQL text with its
  // placeholders, never the arguments. Off: one boolean check.
  private get(sql: string, args: unknown[]): Record<string, unknown> | undefined {
    reportStatement(sql);
    if (tracing.on) return dbSpanSync("sqlite", sql, () => this.readRow(sql, args));
    return this.readRow(sql, args);
  }

  private run(sql: string, args: unknown[]): number {
    reportStatement(sql);
    if (tracing.on) return dbSpanSync("sqlite", sql, () => this.stmt(sql).run(...args).changes);
    return this.stmt(sql).run(...args).changes;
  }

  private insert(table: string, row: InsertRow) {
    const { sql, values } = insertSql(table, row, sqliteValue);
    this.run(sql, values);
  }

  /**
   * Runs a synchronous operation, retrying asynchronously while another connection holds the lock.
   * The first attempt runs at once (no async frame: the common case is one read that succeeds).
   */
  private retry<T>(op: () => T): Promise<T> {
    try {
      return Promise.resolve(op());
    } catch (err) {
      if (!isSqliteBusy(err) || this.busyWaitMs <= 0) return Promise.reject(err);
      return this.retryLater(op, Date.now() + this.busyWaitMs);
    }
  }

  private async retryLater<T>(op: () => T, deadline: number): Promise<T> {
    for (let delay = 1; ; delay = Math.min(delay * 2, 25)) {
      await sleep(delay);
      try {
        return op();
      } catch (err) {
        if (!isSqliteBusy(err) || Date.now() >= deadline) throw err;
      }
    }
  }

  /**
   * Group commit: every write of the hot path (`body`, synchronous) is queued and the queue runs at
   * the end of this turn of the event loop (setImmediate) in ONE transaction, BEGIN IMMEDIATE ..
   * COMMIT, each write inside its own SAVEPOINT when there are several. A commit costs per page it
   * touched (every page goes to the WAL again), and the writes of concurrent requests share most of
   * theirs (the database header, the tail pages of tables and time-ordered indexes): under load this
   * writes far fewer WAL pages per flow. A write's promise settles only after COMMIT (durable as any
   * commit with synchronous=NORMAL); `body` returning false or throwing undoes that write alone.
   * The transaction never spans an await, so Prisma's connection is never blocked by it. A locked
   * database (another connection's write) is retried asynchronously; a write still waiting after
   * busyWaitMs fails with the lock error, as a statement would.
   */
  private write(body: () => boolean): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ body, resolve, reject, deadline: Date.now() + this.busyWaitMs,
        ctx: tracing.on ? context.active() : undefined });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush(1));
      }
    });
  }

  private flush(delay: number) {
    this.flushScheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    try {
      this.run("BEGIN IMMEDIATE", []);
    } catch (err) {
      const now = Date.now();
      const waiting = batch.filter((w) => {
        if (isSqliteBusy(err) && now < w.deadline) return true;
        w.reject(err);
        return false;
      });
      if (waiting.length > 0) {
        this.queue = waiting.concat(this.queue);
        this.flushScheduled = true;
        setTimeout(() => this.flush(Math.min(delay * 2, 25)), delay);
      }
      return;
    }
    const single = batch.length === 1;
    const outcomes: Array<{ ok: true; value: boolean } | { ok: false; err: unknown }> = [];
    try {
      for (const w of batch) {
        if (!single) this.run("SAVEPOINT w", []);
        try {
          // BEGIN/COMMIT of a batch are traced under the first writer's request; each write under its own.
          const value = w.ctx ? context.with(w.ctx, w.body) : w.body();
          if (!value && !single) this.run("ROLLBACK TO w", []);
          outcomes.push({ ok: true, value });
        } catch (err) {
          // Some errors (disk full, I/O) make SQLite roll the whole transaction back: every write of
          // the batch is then undone and fails with that error.
          if (!this.db.inTransaction) throw err;
          if (!single) this.run("ROLLBACK TO w", []);
          outcomes.push({ ok: false, err });
        }
        if (!single) this.run("RELEASE w", []);
      }
      if (single && !(outcomes[0]!.ok && outcomes[0]!.value)) this.run("ROLLBACK", []);
      else this.run("COMMIT", []);
    } catch (err) {
      // COMMIT, a savepoint statement or the transaction itself failed: nothing of the batch is written.
      if (this.db.inTransaction) {
        try { this.run("ROLLBACK", []); } catch { /* the connection rolled back itself */ }
      }
      for (const w of batch) w.reject(err);
      return;
    }
    batch.forEach((w, i) => {
      const o = outcomes[i]!;
      if (o.ok) w.resolve(o.value);
      else w.reject(o.err);
    });
  }

  findLiveSessions({ browserIdHash, subscriberId, msisdn, now }: {
    browserIdHash: string; subscriberId?: string; msisdn?: string; now: Date;
  }): Promise<LiveSession[]> {
    const sql = liveSessionsSql({ bySubscriber: !!subscriberId, byMsisdn: !!msisdn });
    const args: unknown[] = [browserIdHash, sqliteValue(now)];
    if (subscriberId) args.push(subscriberId);
    if (msisdn) args.push(msisdn);
    return this.retry(() => {
      reportStatement(sql);
      const all = () => this.stmt(sql).all(...args) as Array<Record<string, unknown>>;
      const rows = tracing.on ? dbSpanSync("sqlite", sql, all) : all();
      return rows.map((r) => ({ id: r.id as string, subscriberId: r.subscriberId as string,
        authTime: sqliteDate(r.authTime)!, acr: r.acr as string, amr: r.amr as string }));
    });
  }

  findGrantScope({ subscriberId, clientId }: { subscriberId: string; clientId: string }): Promise<string | null> {
    return this.retry(() => (this.get(SQL.grantScope, [subscriberId, clientId])?.scope as string | undefined) ?? null);
  }

  insertAuthorizationCode(row: InsertRow): Promise<void> {
    return this.write(() => {
      this.insert("AuthorizationCode", row);
      return true;
    }).then(() => undefined);
  }

  completeAuthorizationRequest({ requestId, openStatuses, sessionId, subscriberId, code, pairwise }: {
    requestId: string; openStatuses: readonly string[]; sessionId: string; subscriberId: string; code: InsertRow;
    pairwise: { sub: string; subscriberId: string; sectorIdentifier: string };
  }): Promise<boolean> {
    const complete = completeRequestSql(openStatuses.length);
    return this.write(() => {
      if (this.run(complete, [sessionId, subscriberId, requestId, ...openStatuses]) !== 1) return false;
      this.insert("AuthorizationCode", code);
      this.run(SQL.upsertPairwiseSubject,
        [pairwise.sub, pairwise.subscriberId, pairwise.sectorIdentifier, sqliteValue(new Date())]);
      return true;
    });
  }

  findAuthorizationCode(codeHash: string) {
    return this.retry(() => toModel<AuthorizationCode>("AuthorizationCode", this.get(SQL.findCode, [codeHash]), sqliteDate));
  }

  redeemAuthorizationCode({ codeHash, usedAt, accessToken, refreshToken, audit }: {
    codeHash: string; usedAt: Date; accessToken: InsertRow; refreshToken?: InsertRow; audit?: InsertRow;
  }): Promise<boolean> {
    return this.write(() => {
      if (this.run(SQL.spendCode, [sqliteValue(usedAt), codeHash]) !== 1) return false;
      this.insert("AccessToken", accessToken);
      if (refreshToken) this.insert("RefreshToken", refreshToken);
      if (audit) this.insert("AuditEvent", audit);
      return true;
    });
  }

  findAccessToken(tokenHash: string) {
    return this.retry(() => toModel<AccessToken>("AccessToken", this.get(SQL.findAccessToken, [tokenHash]), sqliteDate));
  }

  findAccessTokenWithSubscriber(tokenHash: string) {
    return this.retry(() => {
      const row = this.get(SQL.accessTokenWithSubscriber, [tokenHash]);
      if (!row) return null;
      const { token, subscriber } = splitTokenRow(row);
      return { token: toModel<AccessToken>("AccessToken", token, sqliteDate)!,
        subscriber: toModel<Subscriber>("Subscriber", subscriber, sqliteDate) };
    });
  }

  findRefreshToken(tokenHash: string) {
    return this.retry(() => withStatus(toModel<RefreshToken>("RefreshToken", this.get(SQL.findRefreshToken, [tokenHash]), sqliteDate)));
  }

  rotateRefreshToken({ tokenHash, usedAt, next, accessToken, audit }: {
    tokenHash: string; usedAt: Date; next: InsertRow; accessToken: InsertRow; audit?: InsertRow;
  }): Promise<boolean> {
    return this.write(() => {
      if (this.run(SQL.spendRefreshToken, [sqliteValue(usedAt), tokenHash]) !== 1) return false;
      this.insert("RefreshToken", next);
      this.insert("AccessToken", accessToken);
      if (audit) this.insert("AuditEvent", audit);
      return true;
    });
  }

  reserveJwtId({ key, expiresAt }: { key: string; expiresAt: Date }): Promise<boolean> {
    return this.write(() => this.run(SQL.reserveJwtId, [key, sqliteValue(expiresAt)]) === 1);
  }

  spendAccessToken({ tokenHash, at }: { tokenHash: string; at: Date }): Promise<boolean> {
    return this.write(() => this.run(SQL.spendAccessToken, [sqliteValue(at), tokenHash, sqliteValue(at)]) === 1);
  }

  findSubscriber(id: string) {
    return this.retry(() => toModel<Subscriber>("Subscriber", this.get(SQL.findSubscriber, [id]), sqliteDate));
  }

  findSubscriberStatus(id: string): Promise<string | null> {
    return this.retry(() => (this.get(SQL.subscriberStatus, [id])?.status as string | undefined) ?? null);
  }

  async close() {
    this.closed = true;
    await this.checkpointer?.stop();
    this.db.close();
  }
}
