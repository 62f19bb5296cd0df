import type { Subscriber } from "@prisma/client";
import { db } from "../db";

/** The subscriber with this MSISDN (E.164 digits, a leading '+' tolerated), or null. */
export async function getSubscriberByMsisdn({ msisdn }: { msisdn: string }): Promise<Subscriber | null> {
  const digits = msisdn.startsWith("+") ? msisdn.slice(1) : msisdn;
  if (!/^[1-9]\d{6,14}$/.test(digits)) return null;
  return db.subscriber.findUnique({ where: { msisdn: digits } });
}
