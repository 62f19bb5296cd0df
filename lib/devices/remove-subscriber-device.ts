import { recordAuditEvent } from "../audit/record-audit-event";
import { revokeDevice } from "./revoke-device";

/**
 * The subscriber removes one of their handsets from the account page: the handset's own removal
 * (revokeDevice, limited to this subscriber's devices, so another subscriber's id changes nothing),
 * then `device_removed` audited. False when the device is not this subscriber's or already removed.
 */
export async function removeSubscriberDevice({ subscriberId, deviceId, ip }: {
  subscriberId: string; deviceId: string; ip?: string | null;
}): Promise<boolean> {
  if (!deviceId || deviceId.length > 100) return false;
  const removed = await revokeDevice({ deviceId, subscriberId });
  if (removed) {
    await recordAuditEvent({ type: "device_removed", outcome: "success", subscriberId, ip,
      detail: { by: "subscriber", device: deviceId } });
  }
  return removed;
}
