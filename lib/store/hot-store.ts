import type { AccessToken, AuthorizationCode, RefreshToken, Subscriber } from "@prisma/client";
import type { LiveSession } from "../sessions/live-session";

/** A refresh token row and the status of its subscriber (null: the subscriber no longer exists). */
export type RefreshTokenWithStatus = RefreshToken & { subscriberStatus: string | null };

/** A row to insert, column name -> value (Date and boolean are converted to the database's format). */
export type InsertRow = Record<string, string | number | boolean | Date | null | undefined>;

/**
 * The hot-path statements of the full flow, refresh and the protected resources, as prepared
 * statements on the store's own connection (SQLite: better-sqlite3 on the same file as Prisma;
 * PostgreSQL: a `pg` pool). Everything else stays on Prisma. Rows have Prisma's model shapes and
 * the store reads and writes Prisma's storage format (docs/architecture.md, "Hot-path store").
 */
export interface HotStore {
  readonly dialect: "sqlite" | "postgresql";
  /** Live sessions of a browser (not ended, not expired, subscriber active), newest sign-in first. */
  findLiveSessions(args: { browserIdHash: string; subscriberId?: string; msisdn?: string; now: Date }):
    Promise<LiveSession[]>;
  /** The space-separated scopes of the remembered grant (subscriber x client), or null. */
  findGrantScope(args: { subscriberId: string; clientId: string }): Promise<string | null>;
  insertAuthorizationCode(row: InsertRow): Promise<void>;
  /**
   * One transaction: complete the stored authorization request (only while its status is one of
   * `openStatuses`: the conditional update decides), insert the code, and record the pairwise subject
   * (inserted once, kept after). False (nothing written) when the request was no longer open.
   */
  completeAuthorizationRequest(args: {
    requestId: string; openStatuses: readonly string[]; sessionId: string; subscriberId: string; code: InsertRow;
    pairwise: { sub: string; subscriberId: string; sectorIdentifier: string };
  }): Promise<boolean>;
  findAuthorizationCode(codeHash: string): Promise<AuthorizationCode | null>;
  /**
   * One transaction: spend the code (only if unused), insert the access token, the refresh token
   * when given, and the audit row when given. False (nothing written) when the code was already used.
   */
  redeemAuthorizationCode(args: {
    codeHash: string; usedAt: Date; accessToken: InsertRow; refreshToken?: InsertRow; audit?: InsertRow;
  }): Promise<boolean>;
  findAccessToken(tokenHash: string): Promise<AccessToken | null>;
  /** The access token and its subscriber (null when the subscriber no longer exists), in one statement. */
  findAccessTokenWithSubscriber(tokenHash: string): Promise<{ token: AccessToken; subscriber: Subscriber | null } | null>;
  /** The refresh token with its subscriber's status (null when the subscriber no longer exists), in one statement. */
  findRefreshToken(tokenHash: string): Promise<RefreshTokenWithStatus | null>;
  /**
   * One transaction: spend the refresh token (only if unused and unrevoked), insert its successor,
   * the new access token and the audit row when given. False (nothing written) otherwise.
   */
  rotateRefreshToken(args: {
    tokenHash: string; usedAt: Date; next: InsertRow; accessToken: InsertRow; audit?: InsertRow;
  }): Promise<boolean>;
  /**
   * The replay cache's one statement: inserts a UsedJwtId row unless its key exists; true when this call
   * inserted it (the first presentation of that key, across instances). SQLite: part of the group commit.
   */
  reserveJwtId(args: { key: string; expiresAt: Date }): Promise<boolean>;
  /**
   * Spends a single-use access token (Number Verification, lib/tokens/spend-access-token.ts): one conditional
   * UPDATE sets revokedAt while it is unrevoked and unexpired at `at`; true for the one call that changed the row.
   * SQLite: part of the group commit.
   */
  spendAccessToken(args: { tokenHash: string; at: Date }): Promise<boolean>;
  findSubscriber(id: string): Promise<Subscriber | null>;
  findSubscriberStatus(id: string): Promise<string | null>;
  close(): Promise<void>;
}
