/**
 * An MSISDN as typed by a person (`+44 7700 900-123`, `0044 7700900123`) -> E.164 digits without
 * `+` (the form the Subscriber table stores), or null when it cannot be a full international number
 * (ITU-T E.164: at most 15 digits, the country code never starts with 0).
 */
export function normaliseMsisdn(input: string | undefined): string | null {
  if (!input || input.length > 40) return null;
  let s = input.trim().replace(/[\s().\-\u00a0]/g, "");
  if (s.startsWith("+")) s = s.slice(1);
  else if (s.startsWith("00")) s = s.slice(2);
  return /^[1-9]\d{6,14}$/.test(s) ? s : null;
}
