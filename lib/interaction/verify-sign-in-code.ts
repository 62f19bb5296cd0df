import { db } from "../db";
import { safeEqual, verifySecret } from "../crypto";
import { completeSignIn } from "./complete-sign-in";
import { hashOneTimeCode, isOneTimeCodeExpired, MAX_CODE_ATTEMPTS } from "./one-time-code";
import type { StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/code: checks the one-time code (constant time, within OTP_TTL, at most
 * MAX_CODE_ATTEMPTS wrong tries, then burnt) and, at level 3, the PIN (scrypt). An unknown or
 * inactive number fails exactly like a wrong code. Expected failures are results, not exceptions.
 */
export async function verifySignInCode(input: StepInput): Promise<StepResult> {
  const { request, params, form } = input;
  if (request.status !== "pending") return { to: "interaction" };
  if (!request.otpHash || !request.otpSentAt) return { to: "interaction", error: "code_expired", step: "msisdn" };
  if (request.otpAttempts >= MAX_CODE_ATTEMPTS) return { to: "interaction", error: "code_burnt" };
  if (isOneTimeCodeExpired(request.otpSentAt)) return { to: "interaction", error: "code_expired" };

  const code = (form.get("code") ?? "").replace(/\s/g, "");
  if (!code) return { to: "interaction", error: "code_missing" };
  const pin = form.get("pin") ?? "";
  if (params.acr === "3" && !pin) return { to: "interaction", error: "pin_missing" };

  const codeOk = safeEqual(hashOneTimeCode({ requestId: request.id, code: code.slice(0, 32) }), request.otpHash);
  const subscriber = codeOk && request.subscriberId
    ? await db.subscriber.findUnique({ where: { id: request.subscriberId } })
    : null;
  if (!subscriber || subscriber.status !== "active") return countFailure(input, "code_invalid");

  if (params.acr === "3") {
    const pinOk = subscriber.pinHash ? await verifySecret(pin.slice(0, 64), subscriber.pinHash) : false;
    if (!pinOk) return countFailure(input, "pin_invalid", subscriber.id);
  }
  return completeSignIn({ ...input, subscriber });
}

/**
 * One wrong attempt: counted on the request (the code is burnt at the limit) and, for a wrong PIN,
 * on the subscriber (`failedPinAttempts`, which the lockout policy reads), in one transaction.
 */
async function countFailure(
  { request }: StepInput, error: "code_invalid" | "pin_invalid", pinSubscriberId?: string,
): Promise<StepResult> {
  const attempts = request.otpAttempts + 1;
  await db.$transaction([
    db.authorizationRequest.update({ where: { id: request.id }, data: { otpAttempts: { increment: 1 } } }),
    ...(pinSubscriberId
      ? [db.subscriber.update({ where: { id: pinSubscriberId }, data: { failedPinAttempts: { increment: 1 } } })]
      : []),
  ]);
  return { to: "interaction", error: attempts >= MAX_CODE_ATTEMPTS ? "code_burnt" : error };
}
