import { db } from "../db";

/**
 * `otpSentAt` of a code that was never sent: "approve on your phone" chosen on the number step, before
 * any text message (issue 17). The epoch: such a code is always past its lifetime, so it can never be
 * used, and the code screen knows no message went out (it offers to send one).
 */
export const UNSENT_CODE_AT = new Date(0);

/**
 * Puts the number's sign-in state on a pending request without a text message: the subscriber (null
 * for an unknown or inactive number, exactly as storeSignInCode does), the masked number, and the hash
 * of a code nobody knows, attempts reset, PIN not verified. One conditional update; false once no longer pending.
 */
export async function storeUnsentSignInCode({ requestId, otpHash, subscriberId, sentTo }: {
  requestId: string; otpHash: string; subscriberId: string | null; sentTo: string | null;
}): Promise<boolean> {
  const { count } = await db.authorizationRequest.updateMany({
    where: { id: requestId, status: "pending" },
    data: { otpHash, otpSentAt: UNSENT_CODE_AT, otpAttempts: 0, subscriberId, pinVerified: false, sentTo,
      typedMsisdn: null, typedAt: null },
  });
  return count > 0;
}
