import { config } from "../config";
import { findSignInRecipient } from "../subscribers/find-sign-in-recipient";
import { issueSignInCode } from "./issue-sign-in-code";
import { normaliseMsisdn } from "./normalise-msisdn";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/msisdn: the subscriber is the one the request names (login_hint,
 * id_token_hint, or the account picked on the selection screen), else the number typed in the
 * `msisdn` field. A code is issued either way (see issueSignInCode); then the code step. Over a
 * sending limit the number step is shown again with the message and `Retry-After`.
 */
export async function startSignIn({ request, params, form, ip, browserId }: StepInput): Promise<StepResult> {
  if (request.status !== "pending") return { to: "interaction" };
  let recipient;
  let target: string;
  if (params.hintedSubscriberId) {
    recipient = await findSignInRecipient({ id: params.hintedSubscriberId });
    target = recipient?.msisdn ?? params.hintedSubscriberId;
  } else if (params.hintedMsisdn) {
    recipient = await findSignInRecipient({ msisdn: params.hintedMsisdn });
    target = params.hintedMsisdn;
  } else if (request.subscriberId) {
    recipient = await findSignInRecipient({ id: request.subscriberId });
    target = recipient?.msisdn ?? request.subscriberId;
  } else {
    const msisdn = normaliseMsisdn(form.get("msisdn"), { country: config().DEFAULT_COUNTRY });
    if (!msisdn) return { to: "interaction", error: "msisdn_invalid", step: "msisdn" };
    recipient = await findSignInRecipient({ msisdn });
    target = msisdn;
  }
  const result = await issueSignInCode({ requestId: request.id, params, recipient, target, ip, browserId });
  if (!result.issued && result.retryAfter) {
    return { to: "interaction", error: "send_limited", step: "msisdn", retryAfter: result.retryAfter };
  }
  return { to: "interaction" };
}
