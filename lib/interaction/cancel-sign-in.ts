import { cancelAuthorizationRequest } from "../authorization-request/cancel-authorization-request";
import { withdrawDeviceRequest } from "../out-of-band/withdraw-device-request";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/cancel: the subscriber gives up signing in; the request becomes `denied`
 * and the resume endpoint answers the relying party with access_denied (RFC 6749 §4.1.2.1).
 */
export async function cancelSignIn({ request }: StepInput): Promise<StepResult> {
  await cancelAuthorizationRequest({ requestId: request.id });
  await withdrawDeviceRequest({ authorizationRequestId: request.id });
  return { to: "resume" };
}
