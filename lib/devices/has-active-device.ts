import { db } from "../db";

/** Whether the subscriber has an enrolled handset that is not revoked (one indexed query). */
export async function hasActiveDevice({ subscriberId }: { subscriberId: string }): Promise<boolean> {
  const device = await db.device.findFirst({ where: { subscriberId, revokedAt: null }, select: { id: true } });
  return device !== null;
}
