import { isIP } from "node:net";
import { InvalidRequest } from "../errors";

/** A login hint in one of the interface's three forms (`login_hint` row; field notes), or CAMARA's `ipport:`. */
export type LoginHint =
  | { kind: "MSISDN"; msisdn: string }
  | { kind: "ENCR_MSISDN"; value: string }
  | { kind: "PCR"; pcr: string }
  /** CAMARA's `ipport:<ipv4>:<port>` / `ipport:[<ipv6>]:<port>`: a data session, named by the network. */
  | { kind: "IPPORT"; address: string; port?: number };

/** The field notes' text for every unusable hint. */
export const BAD_HINT = "Invalid value for login_hint or login_hint_token";

/** E.164 without `+`: a country code then up to 15 digits in all (ITU-T E.164 §6). */
export const MSISDN_PATTERN = /^[1-9]\d{6,14}$/;

/**
 * Parses `MSISDN:<digits>`, `ENCR_MSISDN:<hex>`, `PCR:<pcr>` or `ipport:…` (prefix case-insensitive; a `+`
 * before the digits is dropped). A bare E.164 number is read as MSISDN. Any other value without one
 * of the prefixes is not a hint this operator understands and yields null: OIDC Core §3.1.2.1 makes
 * `login_hint` advisory, so it is ignored rather than refused (the conformance suite sends e-mail
 * style hints). A recognised prefix with a malformed value is `invalid_request`.
 */
export function parseLoginHint(value: string): LoginHint | null {
  if (/^ipport:/i.test(value)) return parseIpPort(value.slice(7));
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

/**
 * The body of an `ipport:` hint (CAMARA Security and Interoperability profile): `198.51.100.1:12345`,
 * `[2001:db8::1]:12345`, or the address alone (`198.51.100.1`, `[2001:db8::1]`; then only ranges that cover every
 * port can name the subscriber). Anything else is `invalid_request`.
 */
function parseIpPort(body: string): LoginHint {
  const m = /^(?:\[([0-9A-Fa-f:.]{2,45})\]|(\d{1,3}(?:\.\d{1,3}){3}))(?::(\d{1,5}))?$/.exec(body);
  const address = m?.[1] ?? m?.[2];
  if (!m || !address || isIP(address) !== (m[1] ? 6 : 4)) throw new InvalidRequest(BAD_HINT);
  if (m[3] === undefined) return { kind: "IPPORT", address };
  const port = Number(m[3]);
  if (port > 65535) throw new InvalidRequest(BAD_HINT);
  return { kind: "IPPORT", address, port };
}
