import { db } from "../db";
import { hashSecret, verifySecret } from "../crypto";
import { AdminError } from "../admin/admin-error";
import { recordAuditEvent } from "../audit/record-audit-event";
import { checkPinStrength } from "../subscribers/check-pin-strength";

/**
 * The subscriber's CIBA user code (CIBA Core §7.1, docs/ciba.md "User code"): a secret the subscriber tells the
 * relying parties they deal with (a call centre, a shop), so that nobody who only knows the phone number can make
 * the handset ring. Once set, every backchannel request for the subscriber must carry it.
 *
 * Format: 4 to 8 digits, with the PIN's strength rules (no repeated digit, no run, not the end of the number:
 * lib/subscribers/check-pin-strength.ts), and not the PIN itself: the user code is read out to other people, the
 * PIN never is. Digits, because it is typed on phone keypads and read over the telephone. Stored as scrypt
 * (hashSecret), like the PIN.
 */

/** Why a user code was refused (the account page's notice keys). */
export type UserCodeRefusal = "user_code_invalid" | "user_code_same_as_pin";

export class UserCodeError extends AdminError {
  constructor(message: string, readonly reason: UserCodeRefusal) {
    super(message);
  }
}

/** Who changed it, for the audit log. */
export type UserCodeActor = { by: "subscriber"; ip?: string | null } | { by: "operator"; actor: string };

/**
 * The audit event: the operator's as the admin CLI names its commands (`admin_subscriber_user_code_set`,
 * `…_clear`, with the operating-system user), the subscriber's own as `user_code_changed`.
 */
function audit(subscriberId: string, who: UserCodeActor, change: "set" | "clear") {
  return recordAuditEvent(who.by === "operator"
    ? { type: `admin_subscriber_user_code_${change}`, outcome: "success", subscriberId,
      detail: { command: `subscriber user-code ${change}`, actor: who.actor } }
    : { type: "user_code_changed", outcome: "success", subscriberId, ip: who.ip ?? null,
      detail: { by: "subscriber", change } });
}

/**
 * Sets (or replaces) the user code of an active or suspended subscriber, audited.
 * Throws UserCodeError when the code breaks the rules above (nothing is changed), AdminError for an unknown
 * subscriber.
 */
export async function setUserCode({ subscriberId, code, who }: {
  subscriberId: string; code: string; who: UserCodeActor;
}): Promise<void> {
  const row = await db.subscriber.findUnique({ where: { id: subscriberId }, select: { msisdn: true, pinHash: true } });
  if (!row) throw new AdminError("unknown subscriber");
  try {
    checkPinStrength({ pin: code, msisdn: row.msisdn });
  } catch (err) {
    if (err instanceof AdminError) {
      throw new UserCodeError(err.message.replace(/^PIN/, "user code"), "user_code_invalid");
    }
    throw err;
  }
  if (row.pinHash && (await verifySecret(code, row.pinHash))) {
    throw new UserCodeError("user code must not be the PIN: relying parties are told the user code", "user_code_same_as_pin");
  }
  const { count } = await db.subscriber.updateMany({ where: { id: subscriberId },
    data: { userCodeHash: await hashSecret(code) } });
  if (count === 0) throw new AdminError("unknown subscriber");
  await audit(subscriberId, who, "set");
}

/** Removes the subscriber's user code (backchannel requests no longer need one); false when none was set. */
export async function clearUserCode({ subscriberId, who }: { subscriberId: string; who: UserCodeActor }): Promise<boolean> {
  const { count } = await db.subscriber.updateMany({ where: { id: subscriberId, NOT: { userCodeHash: null } },
    data: { userCodeHash: null } });
  if (count === 0) return false;
  await audit(subscriberId, who, "clear");
  return true;
}
