import { db } from "../db";
import { notifyRelyingParties } from "../logout/notify-relying-parties";

/**
 * Revokes an enrolled handset (the subscriber's "Remove this phone", or operator staff through the
 * admin CLI): `revokedAt` is set once, so its device credential no longer opens /device, its
 * events or its answers (findDevice), and it must enrol again to approve anything. When it was the
 * subscriber's last handset, the requests still pending on it are expired in the same
 * transaction, so a waiting relying party gets its answer now rather than at the expiry.
 * Returns false when the device is unknown or already revoked (nothing changes).
 */
export async function revokeDevice({ deviceId, subscriberId }: { deviceId: string; subscriberId?: string }):
  Promise<boolean> {
  const now = new Date();
  const removed = await db.$transaction(async (tx) => {
    const device = await tx.device.findUnique({ where: { id: deviceId }, select: { subscriberId: true, revokedAt: true } });
    if (!device || device.revokedAt || (subscriberId && device.subscriberId !== subscriberId)) return false;
    const done = await tx.device.updateMany({ where: { id: deviceId, revokedAt: null }, data: { revokedAt: now } });
    if (done.count !== 1) return false;
    const others = await tx.device.count({ where: { subscriberId: device.subscriberId, revokedAt: null } });
    if (others === 0) {
      await tx.deviceRequest.updateMany({
        where: { subscriberId: device.subscriberId, status: "pending" }, data: { status: "expired" },
      });
    }
    return device.subscriberId;
  });
  if (removed) await notifyRelyingParties({ reason: "device_removed", subscriberId: removed }, now); // lib/logout
  return removed !== false;
}
