/**
 * An expected operator-facing failure (bad input, duplicate, unknown record): the admin CLI prints
 * its message as one line and exits non-zero. Anything else is an unexpected error.
 */
export class AdminError extends Error {
  override readonly name = "AdminError";
}

/** True when `err` is Prisma's unique-constraint violation (P2002): a duplicate that slipped past a check. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}
