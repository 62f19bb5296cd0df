import { db } from "../db";
import { withdrawDeviceRequest } from "../out-of-band/withdraw-device-request";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/restart ("Use another number"): forgets the number and its code and shows
 * the number step again. Not offered when the relying party named the subscriber in a hint.
 */
export async function restartSignIn({ request, params }: StepInput): Promise<StepResult> {
  const hinted = Boolean(params.hintedSubscriberId || params.hintedMsisdn);
  if (request.status === "pending" && !hinted) {
    await db.authorizationRequest.updateMany({
      where: { id: request.id, status: "pending" },
      data: { otpHash: null, otpSentAt: null, otpAttempts: 0, subscriberId: null, pinVerified: false },
    });
    await withdrawDeviceRequest({ authorizationRequestId: request.id });
  }
  return { to: "interaction", step: "msisdn" };
}
