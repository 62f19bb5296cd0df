import type { InsertRow } from "./hot-store";

/**
 * The hot-path SQL, written once for SQLite and PostgreSQL: every identifier double-quoted (the
 * Prisma schema's model and field names, identical in both databases), `?` placeholders that the
 * PostgreSQL store numbers ($1, $2, ...), no dialect-specific functions or casts.
 */

/** Columns whose values are DateTime / Boolean in the Prisma schema, by table (for reading rows back). */
export const DATE_COLUMNS: Record<string, readonly string[]> = {
  Session: ["authTime", "createdAt", "expiresAt", "endedAt"],
  AuthorizationCode: ["authTime", "expiresAt", "usedAt", "createdAt"],
  AccessToken: ["authTime", "expiresAt", "revokedAt", "createdAt"],
  RefreshToken: ["authTime", "expiresAt", "usedAt", "revokedAt", "createdAt"],
  Subscriber: ["lockedUntil", "createdAt", "updatedAt"],
};
export const BOOLEAN_COLUMNS: Record<string, readonly string[]> = { Subscriber: ["emailVerified"] };

/** The AccessToken model's columns (prisma/schema.prisma), selected with a `t_` prefix beside the subscriber's. */
const ACCESS_TOKEN_COLUMNS = ["tokenHash", "clientId", "subscriberId", "scope", "codeHash", "familyId", "acr", "authTime",
  "expiresAt", "revokedAt", "createdAt", "dpopJkt", "amr"] as const;

const TOKEN_ALIASES = new Map<string, string>(ACCESS_TOKEN_COLUMNS.map((c) => [`t_${c}`, c]));

/** Splits a row of `accessTokenWithSubscriber` into the token's and the subscriber's columns. */
export function splitTokenRow(row: Record<string, unknown>): { token: Record<string, unknown>; subscriber?: Record<string, unknown> } {
  const token: Record<string, unknown> = {};
  const subscriber: Record<string, unknown> = {};
  for (const k in row) {
    const column = TOKEN_ALIASES.get(k);
    if (column) token[column] = row[k];
    else subscriber[k] = row[k];
  }
  return { token, subscriber: subscriber.id === null || subscriber.id === undefined ? undefined : subscriber };
}

/** The live-session query with the optional hint filters (four fixed texts, each prepared once). */
export function liveSessionsSql({ bySubscriber, byMsisdn }: { bySubscriber: boolean; byMsisdn: boolean }): string {
  return `SELECT s."id", s."subscriberId", s."authTime", s."acr", s."amr" FROM "Session" s
    JOIN "Subscriber" u ON u."id" = s."subscriberId"
    WHERE s."browserIdHash" = ? AND s."endedAt" IS NULL AND s."expiresAt" > ? AND u."status" = 'active'`
    + (bySubscriber ? ` AND s."subscriberId" = ?` : "")
    + (byMsisdn ? ` AND u."msisdn" = ?` : "")
    + ` ORDER BY s."authTime" DESC LIMIT 20`;
}

export const SQL = {
  grantScope: `SELECT "scope" FROM "Grant" WHERE "subscriberId" = ? AND "clientId" = ?`,
  findCode: `SELECT * FROM "AuthorizationCode" WHERE "codeHash" = ?`,
  spendCode: `UPDATE "AuthorizationCode" SET "usedAt" = ? WHERE "codeHash" = ? AND "usedAt" IS NULL`,
  findAccessToken: `SELECT * FROM "AccessToken" WHERE "tokenHash" = ?`,
  // The refresh grant needs the token and its subscriber's status together (one statement, not two); the alias is
  // no column of either table.
  findRefreshToken: `SELECT r.*, u."status" AS "subscriberStatus" FROM "RefreshToken" r
    LEFT JOIN "Subscriber" u ON u."id" = r."subscriberId" WHERE r."tokenHash" = ?`,
  spendRefreshToken:
    `UPDATE "RefreshToken" SET "usedAt" = ? WHERE "tokenHash" = ? AND "usedAt" IS NULL AND "revokedAt" IS NULL`,
  findSubscriber: `SELECT * FROM "Subscriber" WHERE "id" = ?`,
  // The protected resources read the token and its subscriber together (one statement, not two).
  accessTokenWithSubscriber: `SELECT ${ACCESS_TOKEN_COLUMNS.map((c) => `t."${c}" AS "t_${c}"`).join(", ")}, u.*
    FROM "AccessToken" t LEFT JOIN "Subscriber" u ON u."id" = t."subscriberId" WHERE t."tokenHash" = ?`,
  subscriberStatus: `SELECT "status" FROM "Subscriber" WHERE "id" = ?`,
  // The replay cache (lib/security/replay-cache.ts): one INSERT, the primary key decides (1 row: first use).
  reserveJwtId: `INSERT INTO "UsedJwtId" ("key", "expiresAt") VALUES (?, ?) ON CONFLICT ("key") DO NOTHING`,
  // A single-use access token (Number Verification): the one UPDATE that changes the row wins.
  spendAccessToken: `UPDATE "AccessToken" SET "revokedAt" = ? WHERE "tokenHash" = ? AND "revokedAt" IS NULL
    AND "expiresAt" > ?`,
  // The pairwise subject is recorded once (an existing row keeps its values: sub is derived from them).
  upsertPairwiseSubject: `INSERT INTO "PairwiseSubject" ("sub", "subscriberId", "sectorIdentifier", "createdAt")
    VALUES (?, ?, ?, ?) ON CONFLICT ("sub") DO UPDATE SET "sectorIdentifier" = excluded."sectorIdentifier"`,
} as const;

/** Completes a stored authorization request while its status is one of `statuses` open ones. */
export function completeRequestSql(statuses: number): string {
  return `UPDATE "AuthorizationRequest" SET "status" = 'completed', "sessionId" = ?, "subscriberId" = ?
    WHERE "id" = ? AND "status" IN (${Array.from({ length: statuses }, () => "?").join(", ")})`;
}

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]{0,62}$/;

/** `@default(now())` columns: Prisma fills them in the client, so the store does too (same format). */
const NOW_DEFAULTS: Record<string, string> = {
  AuthorizationCode: "createdAt", AccessToken: "createdAt", RefreshToken: "createdAt", AuditEvent: "at",
};

/**
 * `INSERT INTO "table" ("a", "b") VALUES (?, ?)` and its values for a row (undefined values left
 * out, so the column default applies; `@default(now())` columns filled like Prisma does). Names come
 * from our code, never from a request; they are checked anyway because they are spliced into the SQL.
 */
export function insertSql(table: string, row: InsertRow, convert: (v: unknown) => unknown): { sql: string; values: unknown[] } {
  const nowColumn = NOW_DEFAULTS[table];
  const full: InsertRow = nowColumn && row[nowColumn] === undefined ? { ...row, [nowColumn]: new Date() } : row;
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const c in full) {
    if (full[c] === undefined) continue;
    columns.push(c);
    values.push(convert(full[c]));
  }
  // The hot path inserts a handful of column sets: the SQL text of each is built (and its
  // identifiers checked) once.
  const key = `${table}\0${columns.join("\0")}`;
  let sql = INSERT_SQL.get(key);
  if (sql === undefined) {
    for (const name of [table, ...columns]) {
      if (!IDENTIFIER.test(name)) throw new Error(`invalid SQL identifier ${JSON.stringify(name)}`);
    }
    sql = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
    if (INSERT_SQL.size < 256) INSERT_SQL.set(key, sql);
  }
  return { sql, values };
}
const INSERT_SQL = new Map<string, string>();

/** Converts the DateTime / Boolean columns of a row as read from the database into Prisma's types. */
export function toModel<T>(table: string, row: Record<string, unknown> | undefined, date: (v: unknown) => Date | null):
  T | null {
  if (!row) return null;
  for (const c of DATE_COLUMNS[table] ?? []) if (c in row) row[c] = date(row[c]);
  for (const c of BOOLEAN_COLUMNS[table] ?? []) if (c in row && row[c] !== null) row[c] = Boolean(row[c]);
  return row as T;
}

/** A refresh token row read with `findRefreshToken`: its `subscriberStatus` null (not undefined) when there is none. */
export function withStatus<T extends object>(row: T | null): (T & { subscriberStatus: string | null }) | null {
  if (!row) return null;
  const r = row as T & { subscriberStatus?: string | null };
  r.subscriberStatus ??= null;
  return r as T & { subscriberStatus: string | null };
}
