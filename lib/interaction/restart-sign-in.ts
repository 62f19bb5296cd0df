import { resetSignIn } from "../authorization-request/reset-sign-in";
import { withdrawDeviceRequest } from "../out-of-band/withdraw-device-request";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/restart ("Use another number"): forgets the number and its code and shows
 * the number step again. Not offered when the relying party named the subscriber in a hint.
 */
export async function restartSignIn({ request, params }: StepInput): Promise<StepResult> {
  const hinted = Boolean(params.hintedSubscriberId || params.hintedMsisdn);
  if (request.status === "pending" && !hinted) {
    await resetSignIn({ requestId: request.id });
    await withdrawDeviceRequest({ authorizationRequestId: request.id });
  }
  return { to: "interaction", step: "msisdn" };
}
