import { findSignInRecipient } from "../subscribers/find-sign-in-recipient";
import { issueSignInCode } from "./issue-sign-in-code";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/resend ("Request a new code"): a fresh code to the same subscriber, with
 * the attempt counter reset. For an unknown number nothing is sent, as on the first attempt. Over
 * the resend limit the current code stays as it is and the screen says to wait (`Retry-After`).
 */
export async function resendSignInCode({ request, params, ip }: StepInput): Promise<StepResult> {
  if (request.status !== "pending") return { to: "interaction" };
  if (!request.otpSentAt) return { to: "interaction", step: "msisdn" };
  const recipient = request.subscriberId
    ? await findSignInRecipient({ id: request.subscriberId })
    : null;
  const result = await issueSignInCode({
    requestId: request.id, params, recipient, target: recipient?.msisdn ?? request.id, resend: true, ip,
  });
  if (!result.issued && result.retryAfter) return { to: "interaction", error: "send_limited", retryAfter: result.retryAfter };
  return { to: "interaction" };
}
