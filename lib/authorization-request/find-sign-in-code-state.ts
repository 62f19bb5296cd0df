import { db } from "../db";

/** A stored request's status and current code hash as they are now (one read), or null when it is gone. */
export async function findSignInCodeState({ requestId }: { requestId: string }):
  Promise<{ status: string; otpHash: string | null } | null> {
  return db.authorizationRequest.findUnique({ where: { id: requestId }, select: { status: true, otpHash: true } });
}
