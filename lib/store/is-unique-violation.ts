/** True when `err` is Prisma's unique-constraint violation (P2002): a duplicate that slipped past a check. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "P2002";
}
