import type { Messages } from "./get-messages";

/**
 * A clock time as the screens write it ("10:42 UTC", with `seconds` "10:42:30 UTC"): in the server's
 * time zone (the `TZ` of the process, set to the operator's), naming the zone, since a browser's zone
 * is unknown to a page that works without script.
 */
export function formatClock({ t, at, seconds = false }: { t: Messages; at: Date; seconds?: boolean }): string {
  return new Intl.DateTimeFormat(t.lang, {
    hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}), hourCycle: "h23", timeZoneName: "short",
  }).format(at);
}

/** "Try again at 10:42 UTC (in 14 minutes)." for the end of a lockout or limit the server knows. */
export function formatRetry({ t, retryAt, now = Date.now() }: { t: Messages; retryAt: Date; now?: number }): string {
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now) / 60_000));
  return t.retry.at(formatClock({ t, at: retryAt }), minutes);
}
