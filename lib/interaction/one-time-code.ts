import { randomInt } from "node:crypto";
import { config } from "../config";
import { sha256 } from "../crypto";

/** Wrong submissions allowed per code before it is burnt (the limit lives with the others). */
export { MAX_CODE_ATTEMPTS } from "../security/limits";

/**
 * Seconds after a code is sent before the code screen offers "Request a new code" (issue 17: the
 * button is disabled until then, with the time written; a script enables it on time). A courtesy, so
 * the first message can arrive: the abuse limits are the server's (lib/security/limit-code-sends.ts).
 * Not applied to a code that cannot be used any more (burnt, expired, or never sent).
 */
export const RESEND_DELAY_SECONDS = 30;

/** A fresh 6-digit one-time code (uniform, from the CSPRNG). */
export function newOneTimeCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/**
 * What is stored for a code: SHA-256 salted with the request id, so equal codes of two requests
 * never share a hash. The code is short-lived and attempt-limited, which is what protects it.
 */
export function hashOneTimeCode({ requestId, code }: { requestId: string; code: string }): string {
  return sha256(`otp\n${requestId}\n${code}`);
}

/** Whether a code sent at `sentAt` is past its lifetime (config OTP_TTL, seconds). */
export function isOneTimeCodeExpired(sentAt: Date, now = Date.now()): boolean {
  return now - sentAt.getTime() > config().OTP_TTL * 1000;
}
