import type { Subscriber } from "@prisma/client";
import { db } from "../db";
import { AdminError } from "../admin/admin-error";
import { normaliseMsisdnOrThrow } from "./normalise-msisdn-or-throw";

/** The subscriber with this MSISDN; throws when the number is malformed or unknown. */
export async function getSubscriberByMsisdnOrThrow({ msisdn }: { msisdn: string }): Promise<Subscriber> {
  const digits = normaliseMsisdnOrThrow(msisdn);
  const row = await db.subscriber.findUnique({ where: { msisdn: digits } });
  if (!row) throw new AdminError(`unknown subscriber ${digits}`);
  return row;
}
