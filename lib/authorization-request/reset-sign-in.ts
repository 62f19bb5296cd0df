import { db } from "../db";

/**
 * "Use another number": a pending request forgets its number, its code and its attempts (one
 * conditional update; nothing happens once it is no longer pending).
 */
export async function resetSignIn({ requestId }: { requestId: string }): Promise<void> {
  await db.authorizationRequest.updateMany({
    where: { id: requestId, status: "pending" },
    data: { otpHash: null, otpSentAt: null, otpAttempts: 0, subscriberId: null, pinVerified: false },
  });
}
