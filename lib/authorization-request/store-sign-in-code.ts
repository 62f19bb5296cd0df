import { db } from "../db";

/**
 * Puts a new one-time code on a pending request (its salted hash, sent now, attempts reset) with the
 * subscriber it was sent to (null for an unknown or inactive number: nothing is sent, the row looks
 * the same), PIN not verified. One conditional update; false when the request is no longer pending.
 */
export async function storeSignInCode({ requestId, otpHash, subscriberId, sentTo }: {
  requestId: string; otpHash: string; subscriberId: string | null;
  /** The masked number for the code screen (issue 17); undefined keeps the one stored (a new code). */
  sentTo?: string | null;
}): Promise<boolean> {
  const { count } = await db.authorizationRequest.updateMany({
    where: { id: requestId, status: "pending" },
    data: { otpHash, otpSentAt: new Date(), otpAttempts: 0, subscriberId, pinVerified: false, sentTo,
      typedMsisdn: null, typedAt: null },
  });
  return count > 0;
}
