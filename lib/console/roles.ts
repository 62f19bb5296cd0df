/**
 * The console's roles (issue 22), each allowed what the one before it may do and more:
 * - `viewer`: reads every page;
 * - `care`: the customer-care desk: subscribers (unlock, suspend, resume, remove a handset, recent sign-ins);
 * - `admin`: clients, signing keys, abuse limits and staff accounts.
 */
export const STAFF_ROLES = ["viewer", "care", "admin"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}

/** Whether `role` may do what `needed` may. */
export function roleAllows(role: StaffRole, needed: StaffRole): boolean {
  return STAFF_ROLES.indexOf(role) >= STAFF_ROLES.indexOf(needed);
}
