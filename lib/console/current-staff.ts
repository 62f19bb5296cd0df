import { cache } from "react";
import { headers } from "next/headers";
import { db } from "../db";
import { parseCookieHeader } from "../playground/call-next-auth";
import { isStaffRole, type StaffRole } from "./roles";
import { consoleCookieNames, liveConsoleSession } from "./console-session";

/** The staff member behind a console request. */
export interface ConsoleStaff {
  id: string;
  username: string;
  role: StaffRole;
  /** The session's identity (member, start, version; the same across renewals, unlike the JWT's jti): binds the console forms' CSRF tokens. */
  sessionId: string;
}

/**
 * The staff member whose console session cookie `cookieHeader` carries, or null: the cookie decrypts
 * under the console's key and has not expired (next-auth's JWT), the session is under its absolute
 * limit, and the member (one read) exists, is enabled and has the session's version (a reset, role
 * change or disable since sign-in ends it).
 */
export async function readConsoleStaff(cookieHeader: string | null): Promise<ConsoleStaff | null> {
  const value = parseCookieHeader(cookieHeader).get(consoleCookieNames().sessionToken);
  if (!value) return null;
  const jwt = await liveConsoleSession(value);
  if (!jwt) return null;
  const row = await db.staff.findUnique({ where: { id: jwt.staffId },
    select: { id: true, username: true, role: true, disabledAt: true, sessionVersion: true } });
  if (!row || row.disabledAt || row.sessionVersion !== jwt.sv || !isStaffRole(row.role)) return null;
  return { id: row.id, username: row.username, role: row.role, sessionId: `${row.id}:${jwt.started}:${jwt.sv}` };
}

/** The signed-in staff member of the page being rendered (once per request), or null. */
export const currentStaff = cache(async (): Promise<ConsoleStaff | null> => {
  const h = await headers();
  return readConsoleStaff(h.get("cookie"));
});
