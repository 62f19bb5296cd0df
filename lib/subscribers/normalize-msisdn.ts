import { AdminError } from "../clients/admin-error";

const E164_DIGITS = /^[1-9]\d{6,14}$/;

/**
 * An MSISDN as stored: E.164 digits without '+' (ITU-T E.164: at most 15 digits, country code
 * never starts with 0); a leading '+' in the input is dropped. Throws on anything else.
 */
export function normalizeMsisdn(input: string): string {
  const digits = input.startsWith("+") ? input.slice(1) : input;
  if (!E164_DIGITS.test(digits)) {
    throw new AdminError("malformed MSISDN: expected 7-15 digits with country code, first digit not 0 (e.g. 447700900123)");
  }
  return digits;
}
