import { db } from "../db";
import { recordLockout } from "../metrics/record";
import { config } from "../config";
import { decryptAtRest, hashSecret, verifySecret } from "../crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { isStaffRole, type StaffRole } from "./roles";
import { totpStep } from "./totp";
import { recordStaffSignInSuccess, reserveStaffSignInAttempt } from "./limit-staff-sign-ins";

/** Consecutive failed console sign-ins (wrong password or code) before the account waits. */
export const STAFF_FAILURES_BEFORE_LOCKOUT = 5;
export const STAFF_LOCKOUT_SECONDS = 15 * 60;

export interface SignedInStaff {
  id: string;
  username: string;
  role: StaffRole;
  sessionVersion: number;
}

/**
 * Why a sign-in failed, as the sign-in page says it: never which of username, password or code was wrong, nor
 * whether the account is locked (a "locked" answer only for existing usernames would let anyone enumerate them:
 * review 22 #5; the audit row still says `locked`); `limited`: too many failed sign-ins from the address
 * (lib/console/limit-staff-sign-ins.ts).
 */
export type StaffSignInFailure = "invalid" | "limited";

// Compared against when the username is unknown, so an unknown name costs the same scrypt as a known one.
let dummyHash: Promise<string> | undefined;

/**
 * Checks a console sign-in (username, password, TOTP code). The attempt is reserved before anything
 * is checked (one conditional UPDATE: the account is enabled, not locked and under the failure
 * threshold), so fifty parallel guesses get at most STAFF_FAILURES_BEFORE_LOCKOUT checks; the fifth
 * failure locks the account for STAFF_LOCKOUT_SECONDS. A TOTP step is accepted once (a second
 * conditional UPDATE), so an observed code cannot be replayed. Before all that, the attempt is
 * reserved against the address's limit (lib/console/limit-staff-sign-ins.ts), also up front.
 * Audited as `staff_sign_in`.
 */
export async function verifyStaffSignIn({ username, password, code, ip }: {
  username: string; password: string; code: string; ip: string | null;
}): Promise<SignedInStaff | StaffSignInFailure> {
  const u = username.trim().toLowerCase();
  const now = new Date();
  const address = ip ?? "unknown";
  if (!(await reserveStaffSignInAttempt(address, now.getTime()))) {
    await recordAuditEvent({ type: "staff_sign_in", outcome: "throttled", ip, detail: { reason: "ip_limit" } });
    return "limited";
  }
  const reserved = u.length > 0 && u.length <= 63 ? await db.staff.updateMany({
    where: { username: u, disabledAt: null, failedSignIns: { lt: STAFF_FAILURES_BEFORE_LOCKOUT },
      OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }] },
    data: { failedSignIns: { increment: 1 } },
  }) : { count: 0 };
  const row = reserved.count === 1 ? await db.staff.findUnique({ where: { username: u } }) : null;
  if (!row) {
    await verifySecret(password, await (dummyHash ??= hashSecret("not-a-password")));
    const known = u.length <= 63 ? await db.staff.findUnique({ where: { username: u }, select: { id: true, disabledAt: true } }) : null;
    const locked = Boolean(known && !known.disabledAt);
    await recordAuditEvent({ type: "staff_sign_in", outcome: locked ? "locked" : "failure", ip,
      staffId: known?.id ?? null, detail: { reason: known ? (known.disabledAt ? "disabled" : "locked") : "unknown_user" } });
    return "invalid"; // locked, disabled or unknown: answered alike
  }
  const passwordOk = await verifySecret(password, row.passwordHash);
  const step = passwordOk ? totpStep(decryptAtRest(row.totpSecret, config().KEY_ENCRYPTION_SECRET), row.username, code.trim()) : null;
  const accepted = step !== null && (await db.staff.updateMany({
    where: { id: row.id, totpLastStep: { lt: step }, disabledAt: null },
    data: { totpLastStep: step, failedSignIns: 0, lockedUntil: null, lastSignInAt: now },
  })).count === 1;
  if (!accepted) {
    const reason = !passwordOk ? "password" : step === null ? "totp" : "totp_replayed";
    const locks = row.failedSignIns >= STAFF_FAILURES_BEFORE_LOCKOUT;
    if (locks) {
      await db.staff.updateMany({ where: { id: row.id },
        data: { failedSignIns: 0, lockedUntil: new Date(now.getTime() + STAFF_LOCKOUT_SECONDS * 1000) } });
      recordLockout("staff");
    }
    await recordAuditEvent({ type: "staff_sign_in", outcome: locks ? "locked" : "failure", ip, staffId: row.id,
      detail: { reason } });
    return "invalid"; // also when this failure locks the account: answered alike
  }
  await recordStaffSignInSuccess(address, now.getTime());
  await recordAuditEvent({ type: "staff_sign_in", outcome: "success", ip, staffId: row.id });
  return { id: row.id, username: row.username, role: isStaffRole(row.role) ? row.role : "viewer",
    sessionVersion: row.sessionVersion };
}
