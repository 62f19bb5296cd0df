/**
 * Reserves one attempt before it is evaluated. `update` is a Prisma single-row `update` whose
 * `where` puts the budget beside the id (`otpAttempts: { lt: MAX }`, not locked, ...) and whose
 * data increments the counter. Prisma sends it as one `UPDATE ... WHERE id = ? AND <budget>
 * RETURNING ...` on SQLite and PostgreSQL, so however many attempts arrive at once, on however many
 * instances, exactly as many get a row as the budget allows and each sees its own count. The others
 * get null (Prisma's P2025: no row matched), and must be refused without being evaluated.
 */
export async function reserveAttempt<T>(update: () => Promise<T>): Promise<T | null> {
  try {
    return await update();
  } catch (err) {
    if ((err as { code?: unknown }).code === "P2025") return null;
    throw err;
  }
}
