/** ITU-T E.164: at most 15 digits, the country code never starts with 0 (7 as a sane minimum). */
const E164_DIGITS = /^[1-9]\d{6,14}$/;
/** What people type between digits: spaces (also no-break), brackets, dots, dashes. */
const SEPARATORS = /[\s().\-\u00a0]/g;

/**
 * An MSISDN -> E.164 digits without `+` (the form the Subscriber table stores), or null when it
 * cannot be a full international number.
 *
 * By default the input is as typed by a person on a screen (`+44 7700 900-123`, `0044 7700900123`):
 * separators are dropped and a leading `+` or `00` is the international prefix. With `strict` (the
 * admin CLI, where a typo must not silently become another number) only the stored form is
 * accepted, optionally with one leading `+`.
 */
export function normaliseMsisdn(input: string | undefined, { strict = false }: { strict?: boolean } = {}):
  string | null {
  if (!input || input.length > 40) return null;
  let s = strict ? input : input.trim().replace(SEPARATORS, "");
  if (s.startsWith("+")) s = s.slice(1);
  else if (!strict && s.startsWith("00")) s = s.slice(2);
  return E164_DIGITS.test(s) ? s : null;
}
