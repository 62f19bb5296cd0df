import { safeEqual } from "../crypto";
import { browserIdHash } from "../sessions/browser-cookie";

/**
 * Whether a stored request belongs to the browser holding `browserId`: SHA-256 of its cookie equals the
 * row's `browserIdHash` (constant time). The CSRF and session-fixation defence of every screen.
 */
export function isRequestOfBrowser(row: { browserIdHash: string }, browserId: string | null): boolean {
  return browserId !== null && browserId !== "" && safeEqual(browserIdHash(browserId), row.browserIdHash);
}

/** Whether a stored request is past its expiry (marked expired, or its time is up at `now`). */
export function isRequestExpired(row: { status: string; expiresAt: Date }, now: number): boolean {
  return row.status === "expired" || row.expiresAt.getTime() <= now;
}
