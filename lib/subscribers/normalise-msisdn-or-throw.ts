import { AdminError } from "../admin/admin-error";
import { normaliseMsisdn } from "../interaction/normalise-msisdn";

/**
 * An MSISDN given to the admin CLI -> the stored form (E.164 digits without '+'; a leading '+' is
 * dropped). Throws an AdminError on anything else, separators included (`normaliseMsisdn` strict).
 */
export function normaliseMsisdnOrThrow(input: string): string {
  const digits = normaliseMsisdn(input, { strict: true });
  if (digits === null) {
    throw new AdminError("malformed MSISDN: expected 7-15 digits with country code, first digit not 0 (e.g. 447700900123)");
  }
  return digits;
}
