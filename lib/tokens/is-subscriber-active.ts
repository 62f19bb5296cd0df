import { db } from "../db";

/** Whether a subscriber still exists and is not suspended (one indexed read of one column). */
export async function isSubscriberActive({ subscriberId }: { subscriberId: string }): Promise<boolean> {
  const row = await db.subscriber.findUnique({ where: { id: subscriberId }, select: { status: true } });
  return row?.status === "active";
}
