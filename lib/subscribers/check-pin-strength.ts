import { AdminError } from "../admin/admin-error";

/** True when every digit is the previous one plus `step` (1234, 4321, 456789). */
function isRun(pin: string, step: 1 | -1): boolean {
  return [...pin].every((d, i) => i === 0 || Number(d) - Number(pin[i - 1]) === step);
}

/**
 * Refuses PINs that are guessed first (NIST SP 800-63B §5.1.1.2 "commonly used" values): not 4-8
 * digits, one repeated digit, an ascending or descending run, or the end of the subscriber's own MSISDN.
 */
export function checkPinStrength({ pin, msisdn }: { pin: string; msisdn: string }): void {
  if (!/^\d{4,8}$/.test(pin)) throw new AdminError("PIN must be 4 to 8 digits");
  if (/^(\d)\1*$/.test(pin)) throw new AdminError("PIN is too weak: all digits are the same");
  if (isRun(pin, 1) || isRun(pin, -1)) throw new AdminError("PIN is too weak: digits form a sequence");
  if (msisdn.endsWith(pin)) {
    throw new AdminError("PIN is too weak: it repeats the end of the phone number");
  }
}
