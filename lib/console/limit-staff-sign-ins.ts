import { addressSubject } from "../http/address-subject";
import { hitRateLimit, peekRateLimit } from "../security/hit-rate-limit";
import { consoleSignInAttemptsPerIp, consoleSignInSuccessesPerIp } from "../security/limits";

/**
 * Reserves one console sign-in attempt from `ip` (an IPv6 address counts as its /64) before anything
 * is checked, so parallel attempts cannot all slip under the limit: every attempt is counted up
 * front, the successful ones of the same window apart (recordStaffSignInSuccess), and the attempt is
 * allowed while those that did not succeed stay within CONSOLE_SIGN_IN_FAILURES_PER_IP (staff behind
 * one office address signing in normally never reach it; a refund needs a fresh TOTP step, so a
 * member's own account buys only a few). False: refused, wait for the window's end.
 */
export async function reserveStaffSignInAttempt(ip: string, now = Date.now()): Promise<boolean> {
  const subject = addressSubject(ip);
  const attempts = await hitRateLimit({ limit: consoleSignInAttemptsPerIp(), subject, now });
  if (attempts.count <= consoleSignInAttemptsPerIp().limit) return true;
  const successes = (await peekRateLimit({ limit: consoleSignInSuccessesPerIp(), subject, now })).count - 1;
  return attempts.count - successes <= consoleSignInAttemptsPerIp().limit;
}

/** Counts a successful sign-in from `ip`, which then does not count against the address's failures. */
export async function recordStaffSignInSuccess(ip: string, now = Date.now()): Promise<void> {
  await hitRateLimit({ limit: consoleSignInSuccessesPerIp(), subject: addressSubject(ip), now });
}
