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
 * With `via=phone` ("Approve on your phone instead", issue 17) no text message is sent: the number's
 * state is stored with a code nobody knows (store-unsent-sign-in-code.ts) and the request goes to the
 * handset (start-phone-approval.ts), for every number alike. A refused number comes back in the field
 * (`typed`, a cookie: sign-in-flash.ts); the code screen shows the masked number the code went to
 * (`sentTo`), the typed one whether or not it is a subscriber's.
 */
export async function startSignIn(input: StepInput): Promise<StepResult> {
  const { request, params, form, ip, browserId } = input;
  if (request.status !== "pending") return { to: "interaction" };
  const typed = (form.get("msisdn") ?? "").trim().slice(0, 40);
  let recipient;
  let target: string;
  let sentTo: string | undefined;
  if (params.hintedSubscriberId) {
    recipient = await findSignInRecipient({ id: params.hintedSubscriberId });
    target = recipient?.msisdn ?? params.hintedSubscriberId;
    sentTo = recipient ? maskMsisdn(recipient.msisdn) : undefined;
  } else if (params.hintedMsisdn) {
    recipient = await findSignInRecipient({ msisdn: params.hintedMsisdn });
    target = params.hintedMsisdn;
  } else if (request.subscriberId) {
    recipient = await findSignInRecipient({ id: request.subscriberId });
    target = recipient?.msisdn ?? request.subscriberId;
    sentTo = recipient ? maskMsisdn(recipient.msisdn) : undefined;
  } else {
    const msisdn = normaliseMsisdn(typed, { country: config().DEFAULT_COUNTRY });
    if (!msisdn) return { to: "interaction", error: "msisdn_invalid", step: "msisdn", typed: typed || undefined };
    recipient = await findSignInRecipient({ msisdn });
    target = msisdn;
    sentTo = maskMsisdn(msisdn);
  }
  if (form.get("via") === "phone") {
    const subscriberId = recipient?.status === "active" ? recipient.id : null;
    const otpHash = hashOneTimeCode({ requestId: request.id, code: randomToken(24) });
    if (!(await storeUnsentSignInCode({ requestId: request.id, subscriberId, otpHash }))) return { to: "interaction" };
    const started = await startPhoneApproval({
      ...input, request: { ...request, subscriberId, otpHash, otpSentAt: UNSENT_CODE_AT, otpAttempts: 0 },
    });
    return { ...started, ...(started.to === "interaction" && sentTo ? { sentTo } : {}) };
  }
  const result = await issueSignInCode({ requestId: request.id, params, recipient, target, ip, browserId });
  if (!result.issued && result.retryAfter) {
    return {
      to: "interaction", error: "send_limited", step: "msisdn", retryAfter: result.retryAfter,
      typed: params.hintedSubscriberId || params.hintedMsisdn || request.subscriberId ? undefined : typed || undefined,
    };
  }
  return { to: "interaction", sentTo };
}
