import { config } from "../config";

/**
 * Every abuse limit of the service in one place. Fixed policy is a constant here; the counts an
 * operator may need to tune (a shared NAT, an SMS budget) come from the configuration.
 * Windows are fixed windows (lib/security/hit-rate-limit.ts), so a burst of up to twice a limit
 * can straddle a window boundary: the limits are sized for that.
 */

/** Consecutive wrong PINs (sign-in screen or handset) before a temporary lockout. */
export const PIN_FAILURES_BEFORE_LOCKOUT = 5;

/** Lockout length by lockout number (1st, 2nd, ...); the last step repeats until a successful sign-in or unlock. */
export const PIN_LOCKOUT_STEPS_SECONDS = [5 * 60, 15 * 60, 60 * 60, 24 * 60 * 60] as const;

/** Wrong submissions allowed per one-time code before it is dead and a new one must be requested. */
export const MAX_CODE_ATTEMPTS = 3;

export interface Limit {
  /** Prefix of the RateLimit key. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Codes one requester may have sent to one number: counted per (browser, number) and per (client
 * address, number). The tight limit, keyed on whoever asks, so a stranger spends his own budget,
 * not the subscriber's (lib/security/limit-code-sends.ts).
 */
export const otpSendsPerRequester = (): Limit =>
  ({ name: "otp-requester", limit: config().OTP_SEND_LIMIT_PER_REQUESTER, windowSeconds: 15 * 60 });

/**
 * Per (carrier-NAT address, number): a NAT address is not one requester, so it gets half the
 * per-number ceiling, which one address alone can therefore never reach.
 */
export const otpSendsPerNatAddress = (): Limit =>
  ({ name: "otp-nat-msisdn", limit: Math.max(1, Math.floor(config().OTP_SEND_LIMIT_PER_MSISDN / 2)), windowSeconds: 15 * 60 });

/**
 * The ceiling per number (known or not: the limit must not reveal which numbers exist), counted
 * only for codes every requester limit allowed. Bounds SMS pumping and flooding of one handset.
 */
export const otpSendsPerMsisdn = (): Limit =>
  ({ name: "otp-msisdn", limit: config().OTP_SEND_LIMIT_PER_MSISDN, windowSeconds: 15 * 60 });

/**
 * "Request a new code" per authorization request. Resends are not counted per number: for an
 * unknown number the typed digits are not kept, and counting only known numbers would reveal which
 * exist. A request belongs to one browser, so this is a requester limit too.
 */
export const otpResendsPerRequest = (): Limit => ({ name: "otp-resend", limit: 3, windowSeconds: 60 * 60 });

/**
 * One-time codes requested from one client address (an IPv6 /64), whatever the numbers (SMS
 * pumping); the operator's carrier-grade NAT ranges (`CARRIER_NAT_RANGES`) have their own limit.
 */
export const otpSendsPerIp = ({ carrierNat = false } = {}): Limit => carrierNat
  ? { name: "otp-nat-ip", limit: config().OTP_SEND_LIMIT_PER_NAT_IP, windowSeconds: 60 * 60 }
  : { name: "otp-ip", limit: config().OTP_SEND_LIMIT_PER_IP, windowSeconds: 60 * 60 };

/**
 * Failed client authentications for one client_id from one address, at /token, /revoke,
 * /introspect. Keyed on the pair, so failures from elsewhere never throttle the relying party.
 */
export const clientAuthFailuresPerClient = (): Limit =>
  ({ name: "client-auth-pair", limit: config().CLIENT_AUTH_FAILURE_LIMIT, windowSeconds: 15 * 60 });

/** Failed client authentications from one address (an IPv6 /64), whatever the client_id (spraying). */
export const clientAuthFailuresPerIp = (): Limit =>
  ({ name: "client-auth-ip", limit: config().CLIENT_AUTH_FAILURE_LIMIT_PER_IP, windowSeconds: 15 * 60 });

/** How long the n-th lockout (1-based) lasts, in seconds. */
export function lockoutSeconds(lockoutNumber: number): number {
  const i = Math.min(Math.max(lockoutNumber, 1), PIN_LOCKOUT_STEPS_SECONDS.length) - 1;
  return PIN_LOCKOUT_STEPS_SECONDS[i]!;
}

/**
 * Failed console sign-ins from one address (an IPv6 /64), whatever the username: password spraying
 * across staff accounts, on top of each account's own lockout (lib/console/verify-staff-sign-in.ts).
 * Every attempt is reserved up front, successes are refunded (lib/console/limit-staff-sign-ins.ts).
 * Fixed policy: staff are few and sign in rarely.
 */
export const CONSOLE_SIGN_IN_FAILURES_PER_IP = 20;
export const consoleSignInAttemptsPerIp = (): Limit =>
  ({ name: "console-sign-in-ip", limit: CONSOLE_SIGN_IN_FAILURES_PER_IP, windowSeconds: 15 * 60 });
/** The successful console sign-ins of the same window and address, which do not count as failures. */
export const consoleSignInSuccessesPerIp = (): Limit =>
  ({ name: "console-sign-in-ip-ok", limit: Number.MAX_SAFE_INTEGER, windowSeconds: 15 * 60 });
