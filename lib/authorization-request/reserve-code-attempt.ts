import { db } from "../db";
import { reserveAttempt } from "../security/reserve-attempt";

/**
 * Takes one of a code's attempts: one conditional increment (lib/security/reserve-attempt.ts), while
 * the request is pending with the same code and fewer than `maxAttempts` were taken. Returns the
 * attempt's number, 1 to `maxAttempts`; null when none is left.
 */
export async function reserveCodeAttempt({ requestId, otpHash, maxAttempts }: {
  requestId: string; otpHash: string; maxAttempts: number;
}): Promise<number | null> {
  const row = await reserveAttempt(() => db.authorizationRequest.update({
    where: { id: requestId, status: "pending", otpHash, otpAttempts: { lt: maxAttempts } },
    data: { otpAttempts: { increment: 1 } }, select: { otpAttempts: true },
  }));
  return row?.otpAttempts ?? null;
}

/**
 * Gives back the attempt a submission reserved when its code was right but its PIN wrong (issue 17):
 * the code stays usable, and the PIN lockout (lib/security/check-pin.ts) bounds the PIN tries. One
 * conditional decrement, only while the request is pending with the same code and has attempts taken.
 */
export async function refundCodeAttempt({ requestId, otpHash }: { requestId: string; otpHash: string }): Promise<void> {
  await db.authorizationRequest.updateMany({
    where: { id: requestId, status: "pending", otpHash, otpAttempts: { gt: 0 } },
    data: { otpAttempts: { decrement: 1 } },
  });
}
