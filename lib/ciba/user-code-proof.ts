import { ACCOUNT_CLIENT_ID } from "../clients/account-client-id";
import { verifySecret } from "../crypto";
import { db } from "../db";
import { checkPin } from "../security/check-pin";
import { hitRateLimit } from "../security/hit-rate-limit";
import type { Limit } from "../security/limits";

/**
 * Tries at the current user code on the account page, per subscriber: 5 per 15 minutes (a fixed window,
 * lib/security/hit-rate-limit.ts). Each try is reserved BEFORE the code is checked (one atomic upsert), so however
 * many posts arrive at once, on however many instances, at most five are checked; beyond it the user code is not
 * checked at all (no oracle) and only the PIN, under its own lockout, can prove the change. Right tries count too:
 * five changes in a quarter of an hour is more than anyone needs.
 */
export const ACCOUNT_USER_CODE_TRIES: Limit = { name: "account-user-code", limit: 5, windowSeconds: 15 * 60 };

/**
 * What the account page asks before the user code changes (docs/account.md): the current user code or the PIN
 * (`code_or_pin`), the current code when the subscriber has no PIN (`code`), the PIN when no code is set yet
 * (`pin`), nothing when the subscriber has neither (the fresh code sign-in is then the only proof there is).
 */
export type UserCodeProofKind = "code_or_pin" | "code" | "pin" | null;

const proofKind = (row: { userCodeHash: string | null; pinHash: string | null }): UserCodeProofKind =>
  row.userCodeHash ? (row.pinHash ? "code_or_pin" : "code") : (row.pinHash ? "pin" : null);

/** Whether the subscriber has a user code (the account page shows "set" or "none") and what a change asks for. */
export async function readUserCodeState({ subscriberId }: { subscriberId: string }): Promise<{
  hasUserCode: boolean; proof: UserCodeProofKind;
}> {
  const row = await db.subscriber.findUnique({ where: { id: subscriberId }, select: { userCodeHash: true, pinHash: true } });
  return { hasUserCode: Boolean(row?.userCodeHash), proof: row ? proofKind(row) : null };
}

export type UserCodeProof =
  | { ok: true }
  /** `wrong`: neither the current user code nor the PIN; `locked`: nothing could be checked (tries used up). */
  | { ok: false; reason: "wrong" | "locked" };

/**
 * Checks what the subscriber typed to prove a change of their user code (UserCodeProofKind): first as the current
 * user code, its try reserved first (ACCOUNT_USER_CODE_TRIES; over it, not checked), then, if that did not prove
 * it, as the PIN through checkPin (lib/security/check-pin.ts: the failure reserved on the subscriber row before the
 * check, the lockout of every PIN entry). A right user code never spends a PIN try; an empty field spends nothing.
 * Nothing asked (no code, no PIN): ok.
 */
export async function checkUserCodeProof({ subscriberId, secret, ip, now = new Date() }: {
  subscriberId: string; secret: string; ip?: string; now?: Date;
}): Promise<UserCodeProof> {
  const row = await db.subscriber.findUnique({ where: { id: subscriberId },
    select: { id: true, userCodeHash: true, pinHash: true } });
  if (!row) return { ok: false, reason: "wrong" };
  if (!proofKind(row)) return { ok: true };
  const typed = secret.slice(0, 64);
  if (!typed) return { ok: false, reason: "wrong" }; // nothing typed: nothing spent
  let checked = false;
  if (row.userCodeHash) {
    const verdict = await hitRateLimit({ limit: ACCOUNT_USER_CODE_TRIES, subject: subscriberId, now: now.getTime() });
    if (verdict.allowed) {
      checked = true;
      if (await verifySecret(typed, row.userCodeHash)) return { ok: true };
    }
  }
  if (row.pinHash) {
    const pin = await checkPin({ subscriber: row, pin: typed, ip, clientId: ACCOUNT_CLIENT_ID, now });
    if (pin.ok) return { ok: true };
    if (pin.reason === "invalid") checked = true;
  }
  return { ok: false, reason: checked ? "wrong" : "locked" };
}
