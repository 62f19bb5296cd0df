import { parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/min";

/** ITU-T E.164: at most 15 digits, the country code never starts with 0 (7 as a sane minimum). */
const E164_DIGITS = /^[1-9]\d{6,14}$/;
/** What people type between digits: spaces (also no-break), brackets, dots, dashes. */
const SEPARATORS = /[\s().\-\u00a0]/g;

/**
 * An MSISDN -> E.164 digits without `+` (the form the Subscriber table stores), or null when it
 * cannot be a full number.
 *
 * By default the input is as typed by a person on a screen, parsed by libphonenumber-js:
 * international (`+44 7700 900-123`, `0044 7700900123`, `447700900123`) or the national format of
 * `country` (the operator's DEFAULT_COUNTRY: `07700 900123` in GB). With `strict` (the admin CLI
 * and login_hint, where a typo must not silently become another number) only the stored form is
 * accepted, optionally with one leading `+`, and `country` is ignored.
 */
export function normaliseMsisdn(
  input: string | undefined,
  { strict = false, country }: { strict?: boolean; country?: CountryCode } = {},
): string | null {
  if (!input || input.length > 40) return null;
  if (strict) {
    const s = input.startsWith("+") ? input.slice(1) : input;
    return E164_DIGITS.test(s) ? s : null;
  }
  let s = input.trim().replace(SEPARATORS, "");
  if (s.startsWith("+")) s = s.slice(1);
  else if (s.startsWith("00")) s = s.slice(2);
  else if (s.startsWith("0") && country && /^0\d+$/.test(s)) {
    // The national format of the operator's country (a leading 0 is a trunk prefix).
    const parsed = parsePhoneNumberFromString(s, country);
    return parsed?.isPossible() && E164_DIGITS.test(parsed.number.slice(1)) ? parsed.number.slice(1) : null;
  }
  return E164_DIGITS.test(s) ? s : null;
}
