import { withdrawDeviceRequest } from "../out-of-band/withdraw-device-request";
import type { StepInput, StepResult } from "./step-result";

/** POST /interaction/{id}/use-code ("Enter a code instead"): the phone request is withdrawn, back to the code screen. */
export async function withdrawPhoneApproval({ request }: StepInput): Promise<StepResult> {
  if (request.status === "pending") await withdrawDeviceRequest({ authorizationRequestId: request.id });
  return { to: "interaction" };
}
