import { db } from "../db";
import { getMessages } from "../i18n/get-messages";
import { getMessagingChannel } from "../messaging/messaging-channel";
import type { AuthorizationParams } from "../oauth/authorize/types";
import { hashOneTimeCode, newOneTimeCode } from "./one-time-code";

type Recipient = { id: string; msisdn: string; status: string } | null;

/**
 * Issues a new one-time code for a pending request: stores its salted hash (attempts reset) and texts
 * it to the subscriber. When the number is unknown or the subscriber is not active, a code hash is
 * stored all the same and nothing is sent, so the screens behave identically and the check fails
 * later with the generic message: which numbers exist is never revealed.
 * Returns false when the request is no longer pending.
 */
export async function issueSignInCode({ requestId, params, recipient }: {
  requestId: string; params: AuthorizationParams; recipient: Recipient;
}): Promise<boolean> {
  const active = recipient?.status === "active" ? recipient : null;
  const code = newOneTimeCode();
  const { count } = await db.authorizationRequest.updateMany({
    where: { id: requestId, status: "pending" },
    data: {
      otpHash: hashOneTimeCode({ requestId, code }), otpSentAt: new Date(), otpAttempts: 0,
      subscriberId: active?.id ?? null, pinVerified: false,
    },
  });
  if (count === 0) return false;
  if (active) {
    const body = getMessages(params.uiLocales).sms.code(params.clientName, code);
    await getMessagingChannel().send({ msisdn: active.msisdn, body });
  }
  return true;
}

