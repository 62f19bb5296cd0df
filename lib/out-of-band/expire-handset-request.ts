import { db } from "../db";
import { settledOutcome, type DeviceOutcome } from "./wait-for-answer";

/** Marks a handset request past its expiry; an answer that won just before keeps its outcome. */
export async function expireHandsetRequest({ id }: { id: string }): Promise<DeviceOutcome> {
  await db.deviceRequest.updateMany({ where: { id, status: "pending" }, data: { status: "expired" } });
  const row = await db.deviceRequest.findUnique({ where: { id }, select: { status: true } });
  return (row && settledOutcome(row.status)) || "expired";
}
