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
 * (`code_or_pin`: two fields, the subscriber fills the one they mean), the current code when the subscriber has no
 * PIN (`code`), the PIN when no code is set yet (`pin`), nothing when the subscriber has neither (the fresh code
 * sign-in is then the only proof there is).
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
  /**
   * `missing`: nothing typed in a field the change asks for (nothing spent); `code_wrong`: not the current user
   * code; `pin_wrong`: not the PIN; `both_wrong`: both typed, neither right; `locked`: nothing typed could be checked
   * (the code's tries used up, the PIN locked).
   */
  | { ok: false; reason: "missing" | "code_wrong" | "pin_wrong" | "both_wrong" | "locked" };

/**
 * Checks what the subscriber typed to prove a change of their user code (UserCodeProofKind). The subscriber says
 * what they type: `code` is checked only as the current user code, its try reserved first (ACCOUNT_USER_CODE_TRIES;
 * over it, not checked), and never as the PIN; `pin` only as the PIN, through checkPin (lib/security/check-pin.ts:
 * the failure reserved on the subscriber row before the check, the lockout of every PIN entry). So a fumbled user
 * code never counts towards the PIN lockout (which would block the subscriber's level-3 sign-ins everywhere), and a
 * right user code never spends a PIN try. A field the subscriber's state does not ask for is ignored; an empty
 * submission spends nothing. Both typed: either proves it, each wrong one counted only against its own tries.
 * Nothing asked (no code, no PIN): ok.
 */
export async function checkUserCodeProof({ subscriberId, code, pin, ip, now = new Date() }: {
  subscriberId: string; code: string; pin: string; ip?: string; now?: Date;
}): Promise<UserCodeProof> {
  const row = await db.subscriber.findUnique({ where: { id: subscriberId },
    select: { id: true, userCodeHash: true, pinHash: true } });
  if (!row) return { ok: false, reason: "missing" };
  if (!proofKind(row)) return { ok: true };
  const typedCode = row.userCodeHash ? code.slice(0, 64) : "";
  const typedPin = row.pinHash ? pin.slice(0, 64) : "";
  if (!typedCode && !typedPin) return { ok: false, reason: "missing" }; // nothing typed: nothing spent
  let codeWrong = false;
  let pinWrong = false;
  if (typedCode) {
    const verdict = await hitRateLimit({ limit: ACCOUNT_USER_CODE_TRIES, subject: subscriberId, now: now.getTime() });
    if (verdict.allowed) {
      if (await verifySecret(typedCode, row.userCodeHash!)) return { ok: true };
      codeWrong = true;
    }
  }
  if (typedPin) {
    const checked = await checkPin({ subscriber: row, pin: typedPin, ip, clientId: ACCOUNT_CLIENT_ID, now });
    if (checked.ok) return { ok: true };
    pinWrong = checked.reason === "invalid";
  }
  const reason = codeWrong ? (pinWrong ? "both_wrong" : "code_wrong") : (pinWrong ? "pin_wrong" : "locked");
  return { ok: false, reason };
}
