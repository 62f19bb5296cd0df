import { db } from "../db";
import { randomToken, sha256 } from "../crypto";
import { AdminError } from "../admin/admin-error";

/**
 * Initial access tokens (RFC 7591 §3): the operator issues one with the admin CLI (`registration token
 * create`) and hands it to a relying party, which sends it as a Bearer token to the registration endpoint.
 * Only its SHA-256 is stored; the token is printed once. Each registration spends one use, reserved by one
 * conditional UPDATE (uses left and not expired), so parallel registrations can never spend more uses than
 * the token has.
 */
export interface InitialAccessTokenRecord {
  /** The stored SHA-256 (base64url): an id for `list` and `revoke`, not a secret. */
  id: string;
  label: string;
  usesLeft: number;
  expiresAt: Date;
  createdAt: Date;
  status: "active" | "used" | "expired";
}

export const MAX_USES = 1_000_000;
export const MAX_TTL_SECONDS = 365 * 86_400;

const toRecord = (row: { tokenHash: string; label: string; usesLeft: number; expiresAt: Date; createdAt: Date },
  now = Date.now()): InitialAccessTokenRecord => ({
  id: row.tokenHash, label: row.label, usesLeft: row.usesLeft, expiresAt: row.expiresAt, createdAt: row.createdAt,
  status: row.usesLeft <= 0 ? "used" : row.expiresAt.getTime() <= now ? "expired" : "active",
});

/** `30m`, `12h`, `7d`, `3600s` or a number of seconds, as seconds (1 s to 365 days). */
export function parseDuration(value: string): number {
  const m = /^(\d{1,9})([smhd]?)$/.exec(value.trim());
  const seconds = m ? Number(m[1]) * { "": 1, s: 1, m: 60, h: 3600, d: 86_400 }[m[2] as ""] : NaN;
  if (!(seconds >= 1 && seconds <= MAX_TTL_SECONDS)) {
    throw new AdminError("--ttl must be a duration such as 30m, 12h or 7d (at most 365d)");
  }
  return seconds;
}

export async function createInitialAccessToken({ uses = 1, ttlSeconds = 86_400, label = "" }: {
  uses?: number; ttlSeconds?: number; label?: string;
}): Promise<{ token: string; record: InitialAccessTokenRecord }> {
  if (!Number.isInteger(uses) || uses < 1 || uses > MAX_USES) throw new AdminError(`--uses must be an integer from 1 to ${MAX_USES}`);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS) {
    throw new AdminError("--ttl must be at most 365 days");
  }
  if (label.length > 100 || /[\u0000-\u001f\u007f]/.test(label)) {
    throw new AdminError("--label must be at most 100 characters, no control characters");
  }
  const token = randomToken(32);
  const row = await db.initialAccessToken.create({
    data: { tokenHash: sha256(token), label, usesLeft: uses, expiresAt: new Date(Date.now() + ttlSeconds * 1000) },
  });
  return { token, record: toRecord(row) };
}

export async function listInitialAccessTokens(): Promise<InitialAccessTokenRecord[]> {
  const rows = await db.initialAccessToken.findMany({ orderBy: { createdAt: "desc" } });
  return rows.map((r) => toRecord(r));
}

/** Deletes a token by its id (the stored hash): registrations with it are refused from now on. */
export async function revokeInitialAccessToken({ id }: { id: string }): Promise<void> {
  const { count } = await db.initialAccessToken.deleteMany({ where: { tokenHash: id } });
  if (count === 0) throw new AdminError(`unknown initial access token ${id}`);
}

/** Whether a presented token can still register a client (one indexed read; nothing reserved). */
export async function isInitialAccessTokenUsable(token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db.initialAccessToken.findUnique({ where: { tokenHash: sha256(token) } });
  return row !== null && row.usesLeft > 0 && row.expiresAt > now;
}

/**
 * Spends one use of a presented token: one conditional UPDATE (uses left, not expired), true when this
 * call got the use. Never read-then-write: fifty parallel calls on a one-use token give one true.
 */
export async function reserveInitialAccessToken(token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const { count } = await db.initialAccessToken.updateMany({
    where: { tokenHash: sha256(token), usesLeft: { gt: 0 }, expiresAt: { gt: now } },
    data: { usesLeft: { decrement: 1 } },
  });
  return count === 1;
}

/** Gives back a use reserved by a registration that then failed (the client was not created). */
export async function refundInitialAccessToken(token: string): Promise<void> {
  await db.initialAccessToken.updateMany({ where: { tokenHash: sha256(token) }, data: { usesLeft: { increment: 1 } } });
}
