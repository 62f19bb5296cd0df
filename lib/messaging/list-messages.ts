import { db } from "../db";

/** The latest messages sent to one handset, newest first (the device inbox). */
export function listMessages({ msisdn, take = 20 }: { msisdn: string; take?: number }) {
  return db.message.findMany({
    where: { msisdn },
    orderBy: { createdAt: "desc" },
    take,
    select: { id: true, body: true, createdAt: true },
  });
}
