import { db } from "../db";
import { sha256 } from "../crypto";
import { DEVICE_COOKIE, readCookie } from "./device-cookie";

export interface EnrolledDevice {
  id: string;
  subscriberId: string;
  name: string;
  msisdn: string;
}

/**
 * The enrolled handset a request comes from: the `op_device` cookie's SHA-256 names a device that
 * is not revoked and whose subscriber is active. One query; null otherwise.
 */
export async function findDevice({ cookieHeader }: { cookieHeader: string | null }): Promise<EnrolledDevice | null> {
  const secret = readCookie(cookieHeader, DEVICE_COOKIE, 43);
  if (!secret) return null;
  const row = await db.device.findUnique({
    where: { secretHash: sha256(secret) },
    select: { id: true, subscriberId: true, name: true, revokedAt: true },
  });
  if (!row || row.revokedAt) return null;
  const subscriber = await db.subscriber.findUnique({
    where: { id: row.subscriberId }, select: { status: true, msisdn: true },
  });
  if (subscriber?.status !== "active") return null;
  return { id: row.id, subscriberId: row.subscriberId, name: row.name, msisdn: subscriber.msisdn };
}
