import { db } from "../db";

/** Who a sign-in code would be sent to: the subscriber's id, number and status. */
export type SignInRecipient = { id: string; msisdn: string; status: string };

/**
 * The subscriber with this id, or with this MSISDN (as stored: E.164 digits, already normalised by the
 * caller), as a code recipient; null when there is none. One read.
 */
export async function findSignInRecipient(where: { id: string } | { msisdn: string }):
  Promise<SignInRecipient | null> {
  return db.subscriber.findUnique({ where, select: { id: true, msisdn: true, status: true } });
}
