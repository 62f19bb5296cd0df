import { createHmac } from "node:crypto";
import { decode, encode } from "next-auth/jwt";
import { config } from "../config";
import { isHttpsIssuer } from "../http/security-headers";

/**
 * The console session cookie's own concepts, kept apart from next-auth's options
 * (lib/console/console-auth.ts) so that proxy.ts can renew a session without loading the sign-in
 * (database, scrypt): this module needs only the configuration and next-auth's JWT functions.
 */

/** A console session lasts this long after the last page viewed (idle timeout), at most CONSOLE_SESSION_MAX_SECONDS. */
export const CONSOLE_SESSION_IDLE_SECONDS = 15 * 60;
export const CONSOLE_SESSION_MAX_SECONDS = 8 * 60 * 60;
/** A session cookie is re-issued (idle renewal) on a page view once it is older than this. */
export const CONSOLE_SESSION_RENEW_AFTER_SECONDS = 60;

/** next-auth's cookies of the console: own names, path /console only, so no other page of the service ever gets them. */
export function consoleCookieNames() {
  const secure = isHttpsIssuer();
  const prefix = secure ? "__Secure-" : "";
  return { sessionToken: `${prefix}ois-console.session`, csrfToken: `${prefix}ois-console.csrf`,
    callbackUrl: `${prefix}ois-console.callback` };
}

/** The key of the console's session JWTs (JWE, next-auth's encode): NEXTAUTH-independent, derived from SUBJECT_SECRET. */
export function consoleSecret(): string {
  return createHmac("sha256", config().SUBJECT_SECRET).update("console-nextauth-secret").digest("base64url");
}

/** The console session's JWT claims beyond next-auth's own. */
export interface ConsoleJwt extends Record<string, unknown> {
  staffId?: string;
  sv?: number;
  /** When the session began (seconds): the absolute limit counts from here. */
  started?: number;
  iat?: number;
}

/** A console session whose claims the checks below have read. */
export type LiveConsoleJwt = ConsoleJwt & { staffId: string; sv: number; started: number };

/**
 * The console session a cookie value carries, or null: it decrypts under the console's key and has not expired
 * (next-auth's JWT), has its claims, and is under its absolute limit (CONSOLE_SESSION_MAX_SECONDS from `started`).
 * Whether the member may still use it is lib/console/current-staff.ts's one read.
 */
export async function liveConsoleSession(token: string, now = Date.now()): Promise<LiveConsoleJwt | null> {
  let jwt: ConsoleJwt | null;
  try {
    jwt = (await decode({ token, secret: consoleSecret() })) as ConsoleJwt | null;
  } catch {
    return null; // not ours, altered or expired
  }
  if (!jwt?.staffId || typeof jwt.sv !== "number" || typeof jwt.started !== "number") return null;
  if (jwt.started + CONSOLE_SESSION_MAX_SECONDS <= Math.floor(now / 1000)) return null;
  return jwt as LiveConsoleJwt;
}

/**
 * Idle renewal: when `token` (the console session cookie's value) is a valid console session issued
 * more than CONSOLE_SESSION_RENEW_AFTER_SECONDS ago and still under its absolute limit, the
 * `Set-Cookie` value of the same session (staffId, sv, started) with a fresh CONSOLE_SESSION_IDLE_SECONDS
 * expiry; else null. Whether the member may still use it is decided on every request by
 * lib/console/current-staff.ts (one read): renewal never extends a disabled or reset member's session.
 */
export async function renewedConsoleSessionCookie(token: string, now = Date.now()): Promise<string | null> {
  const jwt = await liveConsoleSession(token, now);
  if (!jwt) return null;
  const nowSeconds = Math.floor(now / 1000);
  if (typeof jwt.iat === "number" && nowSeconds - jwt.iat < CONSOLE_SESSION_RENEW_AFTER_SECONDS) return null;
  const value = await encode({ secret: consoleSecret(), maxAge: CONSOLE_SESSION_IDLE_SECONDS,
    token: { sub: jwt.staffId, name: jwt.name as string | undefined, staffId: jwt.staffId, sv: jwt.sv, started: jwt.started } });
  const expires = new Date(now + CONSOLE_SESSION_IDLE_SECONDS * 1000).toUTCString();
  return `${consoleCookieNames().sessionToken}=${value}; Path=/console; Expires=${expires}; HttpOnly; SameSite=Lax`
    + (isHttpsIssuer() ? "; Secure" : "");
}
