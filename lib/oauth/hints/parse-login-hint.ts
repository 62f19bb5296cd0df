import { InvalidRequest } from "../errors";

/** A login hint in one of the interface's three forms (`login_hint` row; field notes). */
export type LoginHint =
  | { kind: "MSISDN"; msisdn: string }
  | { kind: "ENCR_MSISDN"; value: string }
  | { kind: "PCR"; pcr: string };

/** The field notes' text for every unusable hint. */
export const BAD_HINT = "Invalid value for login_hint or login_hint_token";

/** E.164 without `+`: a country code then up to 15 digits in all (ITU-T E.164 §6). */
export const MSISDN_PATTERN = /^[1-9]\d{6,14}$/;

/**
 * Parses `MSISDN:<digits>`, `ENCR_MSISDN:<hex>` or `PCR:<pcr>` (prefix case-insensitive; a `+`
 * before the digits is dropped). A bare E.164 number is read as MSISDN. Any other value without one
 * of the prefixes is not a hint this operator understands and yields null: OIDC Core §3.1.2.1 makes
 * `login_hint` advisory, so it is ignored rather than refused (the conformance suite sends e-mail
 * style hints). A recognised prefix with a malformed value is `invalid_request`.
 */
export function parseLoginHint(value: string): LoginHint | null {
  const m = /^(MSISDN|ENCR_MSISDN|PCR):(.*)$/is.exec(value);
  if (!m) {
    const bare = value.replace(/^\+/, "");
    return MSISDN_PATTERN.test(bare) ? { kind: "MSISDN", msisdn: bare } : null;
  }
  const kind = m[1]!.toUpperCase() as LoginHint["kind"];
  const body = m[2]!;
  if (kind === "MSISDN") {
    const msisdn = body.replace(/^\+/, "");
    if (!MSISDN_PATTERN.test(msisdn)) throw new InvalidRequest(BAD_HINT);
    return { kind, msisdn };
  }
  if (kind === "ENCR_MSISDN") {
    if (!/^[0-9a-fA-F]{64,1024}$/.test(body) || body.length % 2) throw new InvalidRequest(BAD_HINT);
    return { kind, value: body };
  }
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(body)) throw new InvalidRequest(BAD_HINT);
  return { kind: "PCR", pcr: body };
}
