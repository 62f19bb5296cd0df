import type { AuthorizationRequest } from "../authorization-request/authorization-request-row";
import { findSignInCodeState } from "../authorization-request/find-sign-in-code-state";
import { refundCodeAttempt, reserveCodeAttempt } from "../authorization-request/reserve-code-attempt";
import { safeEqual, verifySecret } from "../crypto";
import { recordAuditEvent } from "../audit/record-audit-event";
import { checkPin, DUMMY_PIN_HASH, PIN_FAILURES_CLEARED } from "../security/check-pin";
import { findSubscriber } from "../subscribers/find-subscriber";
import { completeSignIn } from "./complete-sign-in";
import { hashOneTimeCode, isOneTimeCodeExpired, MAX_CODE_ATTEMPTS } from "./one-time-code";
import type { InteractionErrorCode, StepInput, StepResult } from "./step-result";
import { recordSignIn } from "../metrics/record";

/**
 * POST /interaction/{id}/code: checks the one-time code (constant time, within OTP_TTL, at most
 * MAX_CODE_ATTEMPTS tries, then burnt) and, at level 3, the PIN under the lockout policy
 * (lib/security/check-pin.ts). A right code with a wrong PIN gives its code attempt back (the code
 * stays valid; the PIN lockout bounds the PIN tries). Each submission first reserves one of the code's attempts in the
 * database, so parallel submissions get no more evaluations than the limit; the right code without
 * an attempt left is refused. An unknown or inactive number fails exactly like a wrong code, and at
 * level 3 every evaluated submission costs one scrypt, so neither the answer nor its timing tells
 * whether the number exists or is locked. A lockout is only ever shown after a correct code, i.e.
 * to whoever holds the handset. Expected failures are results, not exceptions; each attempt is audited.
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

  const attempt = await reserveCodeAttempt({
    requestId: request.id, otpHash: request.otpHash, maxAttempts: MAX_CODE_ATTEMPTS,
  });
  if (attempt === null) return refused(request);
  const codeOk = safeEqual(hashOneTimeCode({ requestId: request.id, code: code.slice(0, 32) }), request.otpHash);
  const found = codeOk && request.subscriberId
    ? await findSubscriber({ id: request.subscriberId })
    : null;
  const subscriber = found?.status === "active" ? found : null;
  if (!subscriber) {
    if (params.acr === "3") await verifySecret(pin.slice(0, 64), DUMMY_PIN_HASH); // same cost as a real PIN check
    return failed(input, attempt, "code_invalid");
  }
  if (params.acr !== "3") return completeSignIn({ ...input, subscriber });
  const result = await checkPin({ subscriber, pin, ip: input.ip, clientId: params.clientId });
  // The code was right: a wrong PIN spends a PIN try (checkPin, bounded by the lockout), not a code try.
  if (!result.ok && result.reason === "invalid") await refundCodeAttempt({ requestId: request.id, otpHash: request.otpHash });
  if (!result.ok) {
    return failed(input, attempt, result.reason === "locked" ? "pin_locked" : "pin_invalid",
      result.reason === "locked" ? result.retryAfter : undefined, result.reason === "invalid" ? result.triesLeft : undefined);
  }
  // checkPin has cleared the failure state (only if not locked at that moment): nothing left to clear.
  return completeSignIn({ ...input, subscriber: { ...subscriber, ...PIN_FAILURES_CLEARED } });
}

/** A submission that got no attempt: the code is burnt, or a parallel submission signed in or a new code was sent. */
async function refused(request: AuthorizationRequest): Promise<StepResult> {
  const current = await findSignInCodeState({ requestId: request.id });
  const burnt = current?.status === "pending" && current.otpHash === request.otpHash;
  return burnt ? { to: "interaction", error: "code_burnt" } : { to: "interaction" };
}

/**
 * One failed attempt (already counted on the request by its reservation; wrong PINs are counted on
 * the subscriber by checkPin), written to the audit log. The last attempt of a code shows it burnt;
 * a PIN lockout carries the seconds until it ends.
 */
async function failed(
  { request, params, ip }: StepInput, attempt: number, error: "code_invalid" | "pin_invalid" | "pin_locked",
  retryAfter?: number, pinTriesLeft?: number,
): Promise<StepResult> {
  await recordAuditEvent({ type: "sign_in", outcome: error === "pin_locked" ? "locked" : "failure",
    subscriberId: request.subscriberId, clientId: params.clientId, ip, detail: { reason: error, acr: params.acr } });
  recordSignIn(params.acr, error === "pin_locked" ? "locked" : "failure");
  // Only a wrong code burns it: a wrong PIN after the right code had its code attempt given back.
  const shown: InteractionErrorCode = error !== "code_invalid" || attempt < MAX_CODE_ATTEMPTS ? error : "code_burnt";
  // A lockout says when it ends (the screens show the time and hide the forms until then).
  if (retryAfter && shown === "pin_locked") return { to: "interaction", error: shown, retryAfter };
  // A wrong PIN says how many are left before the lockout (the counter checkPin just reserved: no extra read or write).
  return shown === "pin_invalid" && pinTriesLeft ? { to: "interaction", error: shown, pinTriesLeft } : { to: "interaction", error: shown };
}
