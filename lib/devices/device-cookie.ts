import { config } from "../config";

/**
 * The handset's device credential cookie and the pending-enrolment cookie (HttpOnly, SameSite=Lax).
 * Over HTTPS both carry the `__Host-` prefix (RFC 6265bis §4.1.3.2: Secure, Path=/, no Domain), so a
 * sibling subdomain cannot plant or overwrite them; the names below are the plain-HTTP ones.
 */
export const DEVICE_COOKIE = "op_device";
export const ENROL_COOKIE = "op_device_enrol";

/** Reads a cookie value of the expected shape (base64url, `length` characters) or null. */
export function readCookie(cookieHeader: string | null, name: string, length: number): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k !== wireName(name)) continue;
    const value = v.join("=");
    return value.length === length && /^[A-Za-z0-9_-]+$/.test(value) ? value : null;
  }
  return null;
}

/** A Set-Cookie value; `maxAge` 0 deletes the cookie. Secure whenever the issuer is HTTPS. */
export function cookieHeader(name: string, value: string, maxAge: number): string {
  const secure = config().ISSUER.startsWith("https:") ? "; Secure" : "";
  return `${wireName(name)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

function wireName(name: string): string {
  return config().ISSUER.startsWith("https:") ? `__Host-${name}` : name;
}
