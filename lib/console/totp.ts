import { Secret, TOTP } from "otpauth";

/** RFC 6238 with the authenticator apps' defaults: SHA-1, 6 digits, 30 s steps. */
const PERIOD = 30;

function totp(secretBase32: string, username: string): TOTP {
  return new TOTP({ issuer: "Operator Identity console", label: username, algorithm: "SHA1", digits: 6, period: PERIOD,
    secret: Secret.fromBase32(secretBase32) });
}

/** A new random TOTP secret (160 bits, RFC 4226 §4's recommendation), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app scans (as a QR code) or takes typed in. */
export function totpUri(secretBase32: string, username: string): string {
  return totp(secretBase32, username).toString();
}

/**
 * The time step a code belongs to when it is valid now (± one step of clock drift, RFC 6238 §5.2), else null.
 * The caller accepts a step at most once (Staff.totpLastStep, reserved atomically).
 */
export function totpStep(secretBase32: string, username: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32, username).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** The current code (the CLI's check after enrolment, the tests). */
export function totpCode(secretBase32: string, username: string, now = Date.now()): string {
  return totp(secretBase32, username).generate({ timestamp: now });
}
