import { getExampleNumber, type CountryCode } from "libphonenumber-js/min";
import examples from "libphonenumber-js/mobile/examples";

const cache = new Map<string, { national: string; international: string } | null>();

/**
 * An example mobile number of the operator's country (DEFAULT_COUNTRY) in the two forms the number
 * step accepts (lib/interaction/normalise-msisdn.ts): national (`07400 123456`) and international
 * (`+44 7400 123456`), from libphonenumber-js's example numbers. Null for a country without one.
 */
export function msisdnExample(country: CountryCode): { national: string; international: string } | null {
  if (!cache.has(country)) {
    const n = getExampleNumber(country, examples);
    cache.set(country, n ? { national: n.formatNational(), international: n.formatInternational() } : null);
  }
  return cache.get(country)!;
}
