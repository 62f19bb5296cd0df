import { db } from "../db";
import { safeEqual, verifySecret } from "../crypto";
import { auditEventRow } from "../audit/record-audit-event";
import { checkPin, DUMMY_PIN_HASH } from "../security/check-pin";
import { completeSignIn } from "./complete-sign-in";
import { hashOneTimeCode, isOneTimeCodeExpired, MAX_CODE_ATTEMPTS } from "./one-time-code";
import type { InteractionErrorCode, StepInput, StepResult } from "./step-result";

/**
 * POST /interaction/{id}/code: checks the one-time code (constant time, within OTP_TTL, at most
 * MAX_CODE_ATTEMPTS wrong tries, then burnt) and, at level 3, the PIN under the lockout policy
 * (lib/security/check-pin.ts). An unknown or inactive number fails exactly like a wrong code, and
 * at level 3 every path costs one scrypt, so neither the answer nor its timing tells whether the
 * number exists or is locked. A lockout is only ever shown after a correct code, i.e. to whoever
 * holds the handset. Expected failures are results, not exceptions; each attempt is audited.
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
  const found = codeOk && request.subscriberId
    ? await db.subscriber.findUnique({ where: { id: request.subscriberId } })
    : null;
  const subscriber = found?.status === "active" ? found : null;
  if (!subscriber) {
    if (params.acr === "3") await verifySecret(pin.slice(0, 64), DUMMY_PIN_HASH); // same cost as a real PIN check
    return countFailure(input, "code_invalid");
  }
  if (params.acr === "3") {
    const result = await checkPin({ subscriber, pin, ip: input.ip, clientId: params.clientId });
    if (!result.ok) return countFailure(input, result.reason === "locked" ? "pin_locked" : "pin_invalid");
  }
  return completeSignIn({ ...input, subscriber });
}

/**
 * One failed attempt, in one transaction: counted on the request (the code is burnt at the limit;
 * wrong PINs are counted on the subscriber by checkPin) and written to the audit log.
 */
async function countFailure(
  { request, params, ip }: StepInput, error: "code_invalid" | "pin_invalid" | "pin_locked",
): Promise<StepResult> {
  const attempts = request.otpAttempts + 1;
  await db.$transaction([
    db.authorizationRequest.update({ where: { id: request.id }, data: { otpAttempts: { increment: 1 } } }),
    db.auditEvent.create({
      data: auditEventRow({ type: "sign_in", outcome: error === "pin_locked" ? "locked" : "failure",
        subscriberId: request.subscriberId, clientId: params.clientId, ip, detail: { reason: error, acr: params.acr } }),
      select: { id: true },
    }),
  ]);
  const shown: InteractionErrorCode = error === "pin_locked" || attempts < MAX_CODE_ATTEMPTS ? error : "code_burnt";
  return { to: "interaction", error: shown };
}
