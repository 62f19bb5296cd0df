import { db } from "../db";

export interface DeviceRecord {
  id: string;
  name: string;
  createdAt: Date;
  lastSeenAt: Date | null;
  revokedAt: Date | null;
}

/** A subscriber's enrolled handsets, revoked ones included (operator view), newest first. No secrets. */
export async function listDevices({ subscriberId }: { subscriberId: string }): Promise<DeviceRecord[]> {
  return db.device.findMany({
    where: { subscriberId },
    select: { id: true, name: true, createdAt: true, lastSeenAt: true, revokedAt: true },
    orderBy: { createdAt: "desc" },
  });
}
