import pg, { type Pool, type PoolClient, type PoolConfig } from "pg";
import { registerDbPool } from "../metrics/db-pools";
import type { AccessToken, AuthorizationCode, RefreshToken, Subscriber } from "@prisma/client";
import type { HotStore, InsertRow } from "./hot-store";
import type { LiveSession } from "../sessions/live-session";
import { completeRequestSql, insertSql, liveSessionsSql, splitTokenRow, SQL, toModel, withStatus } from "./sql";
import { reportStatement } from "./statement-listener";
import { dbSpan, tracing } from "../tracing/spans";

const TIMESTAMP_OID = 1114; // timestamp without time zone: Prisma's DateTime column type (TIMESTAMP(3))

/**
 * Prisma stores DateTime in `timestamp(3)` (no zone) as UTC. node-postgres would parse such a value
 * in the process's local zone, so it is parsed as UTC here; values are sent as ISO 8601 text with
 * `Z`, which PostgreSQL reads as the UTC wall-clock time for a zone-less column.
 */
const types = {
  getTypeParser(oid: number, format?: string) {
    if (oid === TIMESTAMP_OID) return (v: string) => new Date(`${v.replace(" ", "T")}Z`);
    return pg.types.getTypeParser(oid, format);
  },
};

function pgValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  return v ?? null;
}

const asDate = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

/** `?` placeholders numbered for PostgreSQL ($1, $2, ...); the SQL texts contain no other `?`. */
function numbered(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

type Queryable = Pick<PoolClient, "query">;

/**
 * The hot-path store on PostgreSQL: a `pg` pool of its own (beside Prisma's), the same SQL as the
 * SQLite store with numbered placeholders, each statement a named prepared statement (parsed once
 * per connection). Transactions are READ COMMITTED like Prisma's: the conditional UPDATE that spends
 * a code or a refresh token row-locks it, so of two concurrent redemptions exactly one updates a row.
 */
export class PgStore implements HotStore {
  readonly dialect = "postgresql" as const;
  private readonly pool: Pool;
  private readonly names = new Map<string, { name: string; text: string }>();

  constructor(connectionString: string, connectTimeoutMs: number, poolSize: number) {
    // DATABASE_POOL_SIZE bounds this pool as it bounds Prisma's: an instance holds at most twice it.
    this.pool = new pg.Pool({ connectionString, max: poolSize, types, connectionTimeoutMillis: connectTimeoutMs } satisfies PoolConfig);
    // An idle connection the server closed must not crash the process; the next query reconnects.
    this.pool.on("error", () => undefined);
    registerDbPool("store", this.pool);
  }

  private prepared(sql: string) {
    let p = this.names.get(sql);
    if (!p) {
      p = { name: `hot_${this.names.size + 1}`, text: numbered(sql) };
      this.names.set(sql, p);
    }
    return p;
  }

  // With traces on (lib/tracing), each statement is a CLIENT span: db.system and the SQL text with its
  // placeholders, never the values. Off: one boolean check.
  private async rows(on: Queryable, sql: string, values: unknown[]): Promise<Array<Record<string, unknown>>> {
    reportStatement(sql);
    if (tracing.on) return dbSpan("postgresql", this.prepared(sql).text, async () => (await on.query({ ...this.prepared(sql), values })).rows);
    return (await on.query({ ...this.prepared(sql), values })).rows;
  }

  private async count(on: Queryable, sql: string, values: unknown[]): Promise<number> {
    reportStatement(sql);
    if (tracing.on) {
      return dbSpan("postgresql", this.prepared(sql).text, async () => (await on.query({ ...this.prepared(sql), values })).rowCount ?? 0);
    }
    return (await on.query({ ...this.prepared(sql), values })).rowCount ?? 0;
  }

  private control(c: Queryable, sql: "BEGIN" | "COMMIT" | "ROLLBACK") {
    reportStatement(sql);
    return tracing.on ? dbSpan("postgresql", sql, () => c.query(sql)) : c.query(sql);
  }

  private insert(on: Queryable, table: string, row: InsertRow) {
    const { sql, values } = insertSql(table, row, pgValue);
    return this.count(on, sql, values);
  }

  private async transaction(body: (c: Queryable) => Promise<boolean>): Promise<boolean> {
    const c = await this.pool.connect();
    let ok = false;
    try {
      await this.control(c, "BEGIN");
      ok = await body(c);
      await this.control(c, ok ? "COMMIT" : "ROLLBACK");
      c.release();
      return ok;
    } catch (err) {
      // A connection left in an unknown state is discarded rather than returned to the pool.
      await c.query("ROLLBACK").catch(() => undefined);
      c.release(err instanceof Error ? err : true);
      throw err;
    }
  }

  async findLiveSessions({ browserIdHash, subscriberId, msisdn, now }: {
    browserIdHash: string; subscriberId?: string; msisdn?: string; now: Date;
  }): Promise<LiveSession[]> {
    const sql = liveSessionsSql({ bySubscriber: !!subscriberId, byMsisdn: !!msisdn });
    const args: unknown[] = [browserIdHash, pgValue(now)];
    if (subscriberId) args.push(subscriberId);
    if (msisdn) args.push(msisdn);
    return (await this.rows(this.pool, sql, args)).map((r) => ({ id: r.id as string,
      subscriberId: r.subscriberId as string, authTime: asDate(r.authTime)!, acr: r.acr as string, amr: r.amr as string }));
  }

  async findGrantScope({ subscriberId, clientId }: { subscriberId: string; clientId: string }) {
    return ((await this.rows(this.pool, SQL.grantScope, [subscriberId, clientId]))[0]?.scope as string | undefined) ?? null;
  }

  async insertAuthorizationCode(row: InsertRow) {
    await this.insert(this.pool, "AuthorizationCode", row);
  }

  completeAuthorizationRequest({ requestId, openStatuses, sessionId, subscriberId, code, pairwise }: {
    requestId: string; openStatuses: readonly string[]; sessionId: string; subscriberId: string; code: InsertRow;
    pairwise: { sub: string; subscriberId: string; sectorIdentifier: string };
  }) {
    const complete = completeRequestSql(openStatuses.length);
    return this.transaction(async (c) => {
      if ((await this.count(c, complete, [sessionId, subscriberId, requestId, ...openStatuses])) !== 1) return false;
      await this.insert(c, "AuthorizationCode", code);
      await this.count(c, SQL.upsertPairwiseSubject,
        [pairwise.sub, pairwise.subscriberId, pairwise.sectorIdentifier, pgValue(new Date())]);
      return true;
    });
  }

  async findAuthorizationCode(codeHash: string) {
    return toModel<AuthorizationCode>("AuthorizationCode", (await this.rows(this.pool, SQL.findCode, [codeHash]))[0], asDate);
  }

  redeemAuthorizationCode({ codeHash, usedAt, accessToken, refreshToken, audit }: {
    codeHash: string; usedAt: Date; accessToken: InsertRow; refreshToken?: InsertRow; audit?: InsertRow;
  }) {
    return this.transaction(async (c) => {
      if ((await this.count(c, SQL.spendCode, [pgValue(usedAt), codeHash])) !== 1) return false;
      await this.insert(c, "AccessToken", accessToken);
      if (refreshToken) await this.insert(c, "RefreshToken", refreshToken);
      if (audit) await this.insert(c, "AuditEvent", audit);
      return true;
    });
  }

  async findAccessToken(tokenHash: string) {
    return toModel<AccessToken>("AccessToken", (await this.rows(this.pool, SQL.findAccessToken, [tokenHash]))[0], asDate);
  }

  async findAccessTokenWithSubscriber(tokenHash: string) {
    const row = (await this.rows(this.pool, SQL.accessTokenWithSubscriber, [tokenHash]))[0];
    if (!row) return null;
    const { token, subscriber } = splitTokenRow(row);
    return { token: toModel<AccessToken>("AccessToken", token, asDate)!, subscriber: toModel<Subscriber>("Subscriber", subscriber, asDate) };
  }

  async findRefreshToken(tokenHash: string) {
    return withStatus(toModel<RefreshToken>("RefreshToken", (await this.rows(this.pool, SQL.findRefreshToken, [tokenHash]))[0], asDate));
  }

  rotateRefreshToken({ tokenHash, usedAt, next, accessToken, audit }: {
    tokenHash: string; usedAt: Date; next: InsertRow; accessToken: InsertRow; audit?: InsertRow;
  }) {
    return this.transaction(async (c) => {
      if ((await this.count(c, SQL.spendRefreshToken, [pgValue(usedAt), tokenHash])) !== 1) return false;
      await this.insert(c, "RefreshToken", next);
      await this.insert(c, "AccessToken", accessToken);
      if (audit) await this.insert(c, "AuditEvent", audit);
      return true;
    });
  }

  async reserveJwtId({ key, expiresAt }: { key: string; expiresAt: Date }): Promise<boolean> {
    return (await this.count(this.pool, SQL.reserveJwtId, [key, pgValue(expiresAt)])) === 1;
  }

  async spendAccessToken({ tokenHash, at }: { tokenHash: string; at: Date }): Promise<boolean> {
    return (await this.count(this.pool, SQL.spendAccessToken, [pgValue(at), tokenHash, pgValue(at)])) === 1;
  }

  async findSubscriber(id: string) {
    return toModel<Subscriber>("Subscriber", (await this.rows(this.pool, SQL.findSubscriber, [id]))[0], asDate);
  }

  async findSubscriberStatus(id: string) {
    return ((await this.rows(this.pool, SQL.subscriberStatus, [id]))[0]?.status as string | undefined) ?? null;
  }

  close() {
    return this.pool.end();
  }
}
