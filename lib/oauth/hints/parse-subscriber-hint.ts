import { MSISDN_PATTERN, parseLoginHint, type LoginHint } from "./parse-login-hint";

/**
 * A hint naming a subscriber where a relying party may also write a telephone URI (the JWT-bearer grant's `sub`,
 * CIBA's `login_hint`): `tel:+<E.164>` (RFC 3966 global number, visual separators `-` `.` `(` `)` allowed), or any
 * login_hint form (parseLoginHint: MSISDN, ENCR_MSISDN, PCR, a bare E.164 number). Null when it is none of these
 * (a `tel:` URI that is not an E.164 number included); a recognised prefix with a malformed value throws
 * `invalid_request`, as parseLoginHint does.
 */
export function parseSubscriberHint(value: string): LoginHint | null {
  const tel = /^tel:\+([0-9().-]+)$/i.exec(value);
  if (!tel) return parseLoginHint(value);
  const msisdn = tel[1]!.replace(/[().-]/g, "");
  return MSISDN_PATTERN.test(msisdn) ? { kind: "MSISDN", msisdn } : null;
}
