import { db } from "../db";
import { config } from "../config";
import { encryptAtRest, hashSecret, randomToken, uuidV7 } from "../crypto";
import { AdminError } from "../admin/admin-error";
import { isStaffRole, type StaffRole } from "./roles";
import { newTotpSecret, totpUri } from "./totp";

/** What a staff account shows (never its password hash or TOTP secret). */
export interface StaffRecord {
  id: string;
  username: string;
  role: StaffRole;
  disabled: boolean;
  lockedUntil: Date | null;
  createdAt: Date;
  lastSignInAt: Date | null;
}

/** What is shown exactly once when an account is created or reset: the password and the TOTP enrolment. */
export interface StaffCredentials {
  username: string;
  password: string;
  totpSecret: string;
  totpUri: string;
}

const USERNAME = /^[a-z0-9][a-z0-9._-]{1,62}$/;

/** Why a staff account operation was refused (the console says it in the member's language, the CLI in English). */
export type StaffAccountRefusal = "username" | "role" | "exists" | "unknown" | "last_admin";

/** A refused staff account operation: an AdminError (one line for the CLI) with a code for the console's message. */
export class StaffAccountError extends AdminError {
  constructor(readonly code: StaffAccountRefusal, message: string) {
    super(message);
  }
}

export function toStaffRecord(row: {
  id: string; username: string; role: string; disabledAt: Date | null; lockedUntil: Date | null; createdAt: Date;
  lastSignInAt: Date | null;
}): StaffRecord {
  return { id: row.id, username: row.username, role: isStaffRole(row.role) ? row.role : "viewer",
    disabled: row.disabledAt !== null, lockedUntil: row.lockedUntil, createdAt: row.createdAt, lastSignInAt: row.lastSignInAt };
}

function checkUsername(username: string): string {
  const u = username.trim().toLowerCase();
  if (!USERNAME.test(u)) {
    throw new StaffAccountError("username", "username: 2-63 characters, lower-case letters, digits, '.', '_' or '-'");
  }
  return u;
}

function checkRole(role: string): StaffRole {
  if (!isStaffRole(role)) throw new StaffAccountError("role", "role: viewer, care or admin");
  return role;
}

async function freshCredentials(username: string, fixed?: { password: string; totpSecret: string }) {
  const password = fixed?.password ?? randomToken(18); // 144 bits, base64url: typed once into a password manager
  const totpSecret = fixed?.totpSecret ?? newTotpSecret();
  return {
    shown: { username, password, totpSecret, totpUri: totpUri(totpSecret, username) } satisfies StaffCredentials,
    stored: { passwordHash: await hashSecret(password), totpSecret: encryptAtRest(totpSecret, config().KEY_ENCRYPTION_SECRET) },
  };
}

/**
 * Creates a staff account with a generated password and TOTP secret, shown once (`staff create`). `fixed`: the
 * demo's published credentials (lib/demo/seed-demo-data.ts), never used otherwise.
 */
export async function createStaff({ username, role, fixed }: {
  username: string; role: string; fixed?: { password: string; totpSecret: string };
}): Promise<StaffCredentials> {
  const u = checkUsername(username);
  const r = checkRole(role);
  const { shown, stored } = await freshCredentials(u, fixed);
  try {
    await db.staff.create({ data: { id: uuidV7(), username: u, role: r, ...stored }, select: { id: true } });
  } catch (err) {
    // The unique username: one of two parallel creations of the same name loses here, with the same answer.
    if ((err as { code?: string }).code === "P2002") throw new StaffAccountError("exists", `staff member ${u} exists`);
    throw err;
  }
  return shown;
}

/** New password and TOTP secret (shown once), lockout cleared, every console session of the member ended. */
export async function resetStaffCredentials(username: string): Promise<StaffCredentials> {
  const u = checkUsername(username);
  const { shown, stored } = await freshCredentials(u);
  const { count } = await db.staff.updateMany({ where: { username: u },
    data: { ...stored, totpLastStep: 0, failedSignIns: 0, lockedUntil: null, sessionVersion: { increment: 1 } } });
  if (count === 0) throw new StaffAccountError("unknown", `no staff member ${u}`);
  return shown;
}

/**
 * Changes a member's role; their console sessions end (they sign in again with the new role); the same
 * role again changes nothing. Refused
 * when it would leave no enabled administrator (the console could then never manage staff again).
 */
export async function setStaffRole(username: string, role: string): Promise<StaffRecord> {
  const r = checkRole(role);
  const current = await db.staff.findUnique({ where: { username: checkUsername(username) } });
  if (current?.role === r) return toStaffRecord(current); // unchanged: the member's sessions go on
  return updateStaff(username, { role: r, sessionVersion: { increment: 1 } }, r !== "admin");
}

/**
 * Disables (or re-enables) a member; disabling ends their console sessions at once, enabling also lifts
 * a sign-in lockout. Disabling the last enabled administrator is refused.
 */
export async function setStaffDisabled(username: string, disabled: boolean): Promise<StaffRecord> {
  return updateStaff(username, disabled ? { disabledAt: new Date(), sessionVersion: { increment: 1 } }
    : { disabledAt: null, failedSignIns: 0, lockedUntil: null }, disabled);
}

/**
 * One member's update; with `keepAnAdmin`, in a serializable transaction that counts the enabled
 * administrators after it and rolls back when none is left, so two administrators demoting each
 * other at the same moment cannot both succeed (on PostgreSQL one transaction then fails, reported
 * as a refusal to retry; SQLite runs them one after the other).
 */
async function updateStaff(username: string, data: Parameters<typeof db.staff.update>[0]["data"],
  keepAnAdmin = false): Promise<StaffRecord> {
  const u = checkUsername(username);
  try {
    const row = await db.$transaction(async (tx) => {
      const updated = await tx.staff.update({ where: { username: u }, data });
      if (keepAnAdmin && await tx.staff.count({ where: { role: "admin", disabledAt: null } }) === 0) {
        throw new StaffAccountError("last_admin", "refused: the console must keep at least one enabled admin");
      }
      return updated;
    }, { isolationLevel: "Serializable" });
    return toStaffRecord(row);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "P2025") throw new StaffAccountError("unknown", `no staff member ${u}`);
    if (code === "P2034") throw new StaffAccountError("last_admin", "refused: a concurrent staff change; try again");
    throw err;
  }
}

/** Every staff account, by username. */
/** Ends every console session of a member (sign-out): the session version moves on, so a copied cookie stops too. */
export async function endStaffSessions(staffId: string): Promise<void> {
  await db.staff.update({ where: { id: staffId }, data: { sessionVersion: { increment: 1 } }, select: { id: true } });
}

export async function listStaff(): Promise<StaffRecord[]> {
  const rows = await db.staff.findMany({ orderBy: { username: "asc" } });
  return rows.map(toStaffRecord);
}
