import { db } from "../db";

/** One `SELECT 1` on Prisma's connection: resolves when the database answers, throws when it does not. */
export async function pingDatabase(): Promise<void> {
  await db.$queryRawUnsafe("SELECT 1");
}
