import type { Messages } from "./get-messages";

/**
 * "Try again at 10:42 UTC (in 14 minutes)." for the end of a lockout or limit the server knows.
 * The clock time is in the server's time zone (the `TZ` of the process, set to the operator's) and
 * says which zone, since a browser's zone is unknown to a page that works without script.
 */
export function formatRetry({ t, retryAt, now = Date.now() }: { t: Messages; retryAt: Date; now?: number }): string {
  const time = new Intl.DateTimeFormat(t.lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" })
    .format(retryAt);
  const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now) / 60_000));
  return t.retry.at(time, minutes);
}
