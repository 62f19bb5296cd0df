import { db } from "../db";

/**
 * The subscriber gave up signing in: a request still `pending` or `authenticated` becomes `denied`
 * and its code is forgotten (one conditional update; nothing happens to a request already past it).
 * The resume endpoint then answers the relying party with access_denied (RFC 6749 §4.1.2.1).
 */
export async function cancelAuthorizationRequest({ requestId }: { requestId: string }): Promise<void> {
  await db.authorizationRequest.updateMany({
    where: { id: requestId, status: { in: ["pending", "authenticated"] } },
    data: { status: "denied", otpHash: null },
  });
}
