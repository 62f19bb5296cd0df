import { keepTypedMsisdn } from "../authorization-request/keep-typed-msisdn";
import { storeUnsentSignInCode, UNSENT_CODE_AT } from "../authorization-request/store-unsent-sign-in-code";
import { config } from "../config";
import { randomToken } from "../crypto";
import { maskMsisdn } from "../messaging/mask-msisdn";
import { findSignInRecipient } from "../subscribers/find-sign-in-recipient";
import { issueSignInCode } from "./issue-sign-in-code";
import { normaliseMsisdn } from "./normalise-msisdn";
import { hashOneTimeCode } from "./one-time-code";
import { startPhoneApproval } from "./start-phone-approval";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/msisdn: the subscriber is the one the request names (login_hint,
 * id_token_hint, or the account picked on the selection screen), else the number typed in the
 * `msisdn` field. A code is issued either way (see issueSignInCode); then the code step. Over a
 * sending limit the number step is shown again with the message and `Retry-After`.
 *
 * Issue 17: a refused typed number is kept on the request for the number step to show it back once
 * (keep-typed-msisdn.ts; never in the URL). The code is stored with the masked number the code screen
 * names (`sentTo`): the typed one, whether or not it is a subscriber's, so it tells nothing. With
 * `via=phone` ("Approve on your phone instead") no text message is sent: the number's state is stored
 * with a code nobody knows (store-unsent-sign-in-code.ts) and the request goes to the handset
 * (start-phone-approval.ts), for every number alike.
 */
export async function startSignIn(input: StepInput): Promise<StepResult> {
  const { request, params, form, ip, browserId } = input;
  if (request.status !== "pending") return { to: "interaction" };
  const typed = (form.get("msisdn") ?? "").trim().slice(0, 40);
  let recipient;
  let target: string;
  let sentTo: string | null = null;
  let typedHere = false;
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
    typedHere = true;
    const msisdn = normaliseMsisdn(typed, { country: config().DEFAULT_COUNTRY });
    if (!msisdn) {
      if (typed) await keepTypedMsisdn({ requestId: request.id, typed });
      return { to: "interaction", error: "msisdn_invalid", step: "msisdn" };
    }
    recipient = await findSignInRecipient({ msisdn });
    target = msisdn;
    sentTo = maskMsisdn(msisdn);
  }
  // A hinted number, or a subscriber named by a hint or picked in this browser: the number the number step showed.
  if (params.hintedMsisdn) sentTo = maskMsisdn(params.hintedMsisdn);
  else if (!typedHere && recipient) sentTo = maskMsisdn(recipient.msisdn);
  // A client that always needs the text-message code (params.freshCodeSignIn, the account page) gets the code.
  if (form.get("via") === "phone" && !params.freshCodeSignIn) {
    const subscriberId = recipient?.status === "active" ? recipient.id : null;
    const otpHash = hashOneTimeCode({ requestId: request.id, code: randomToken(24) });
    if (!(await storeUnsentSignInCode({ requestId: request.id, subscriberId, otpHash, sentTo }))) return { to: "interaction" };
    return startPhoneApproval({
      ...input, request: { ...request, subscriberId, otpHash, otpSentAt: UNSENT_CODE_AT, otpAttempts: 0, sentTo },
    });
  }
  const result = await issueSignInCode({ requestId: request.id, params, recipient, target, ip, browserId, sentTo });
  if (!result.issued && result.retryAfter) {
    if (typedHere) await keepTypedMsisdn({ requestId: request.id, typed });
    return { to: "interaction", error: "send_limited", step: "msisdn", retryAfter: result.retryAfter };
  }
  return { to: "interaction" };
}
