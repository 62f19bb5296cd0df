import { db } from "../db";

/**
 * The account chosen on the selection screen, for a request still `pending` (one conditional update
 * each): `authenticateWithSession` when that session satisfies the request (it becomes
 * `authenticated` with it), else `signInAs` (that subscriber signs in again: the number is filled in,
 * any code and attempts forgotten).
 */
export async function authenticateWithSession({ requestId, sessionId, subscriberId }: {
  requestId: string; sessionId: string; subscriberId: string;
}): Promise<void> {
  await db.authorizationRequest.updateMany({
    where: { id: requestId, status: "pending" },
    data: { status: "authenticated", sessionId, subscriberId, otpHash: null },
  });
}

export async function signInAs({ requestId, subscriberId }: { requestId: string; subscriberId: string }):
  Promise<void> {
  await db.authorizationRequest.updateMany({
    where: { id: requestId, status: "pending" },
    data: { subscriberId, otpHash: null, otpSentAt: null, otpAttempts: 0 },
  });
}
