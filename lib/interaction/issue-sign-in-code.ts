import { storeSignInCode } from "../authorization-request/store-sign-in-code";
import { getMessages } from "../i18n/get-messages";
import { configuredBrandName } from "../branding/brand";
import { getMessagingChannel } from "../messaging/messaging-channel";
import type { AuthorizationParams } from "../oauth/authorize/types";
import { limitCodeSends } from "../security/limit-code-sends";
import type { SignInRecipient } from "../subscribers/find-sign-in-recipient";
import { hashOneTimeCode, newOneTimeCode } from "./one-time-code";
import { config } from "../config";
import { getClient } from "../clients/get-client";
import { recordCodeSent } from "../metrics/record";

type Recipient = SignInRecipient | null;

export type IssueResult = { issued: true } | { issued: false; retryAfter?: number };

/**
 * Issues a new one-time code for a pending request: stores its salted hash (attempts reset) and texts
 * it to the subscriber. When the number is unknown or the subscriber is not active, a code hash is
 * stored all the same and nothing is sent, so the screens behave identically and the check fails
 * later with the generic message: which numbers exist is never revealed. Sending is limited
 * (lib/security/limit-code-sends.ts): per requester (this browser, the client IP) and, for a first
 * code, per number asked for (`target`, known or not); a new code (`resend`) per request. Over a
 * limit nothing is stored or sent
 * and `retryAfter` says how long to wait. `issued: false` without it: no longer pending.
 */
export async function issueSignInCode({ requestId, params, recipient, target, resend = false, ip, browserId, sentTo }: {
  requestId: string; params: AuthorizationParams; recipient: Recipient; target: string; resend?: boolean; ip?: string;
  browserId?: string;
  /** The masked number the code screen names (issue 17), stored with the code; undefined keeps the stored one. */
  sentTo?: string | null;
}): Promise<IssueResult> {
  const verdict = await limitCodeSends({
    msisdn: recipient?.msisdn ?? target, resendOf: resend ? requestId : undefined, ip, browserId, clientId: params.clientId,
  });
  if (!verdict.allowed) return { issued: false, retryAfter: verdict.retryAfter };
  const active = recipient?.status === "active" ? recipient : null;
  const code = newOneTimeCode();
  const stored = await storeSignInCode({
    requestId, otpHash: hashOneTimeCode({ requestId, code }), subscriberId: active?.id ?? null, sentTo,
  });
  if (!stored) return { issued: false };
  if (active) {
    const t = getMessages(params.uiLocales);
    // Sent from the operator's sender: a self-registered client's name is words it chose freely, so it is not in
    // the text (as in the CIBA text message, lib/ciba/bc-authorize/sms-text.ts); the screen shows it with its mark.
    const named = (await getClient({ clientId: params.clientId }))?.registeredBy === "admin";
    const brand = configuredBrandName(t.lang);
    const body = named ? t.sms.code(params.clientName, code, brand) : t.sms.codeForService(code, brand);
    await getMessagingChannel().send({ msisdn: active.msisdn, body });
    recordCodeSent(config().MESSAGING_CHANNEL);
  }
  return { issued: true };
}
