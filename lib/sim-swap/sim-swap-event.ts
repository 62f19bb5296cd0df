import { normaliseMsisdn } from "../interaction/normalise-msisdn";

/** Where a SIM change was recorded from: the admin CLI (`sim swap`) or an import of the operator's events. */
export type SimSwapSource = "cli" | "import";

/** One recorded SIM change (SimSwapEvent). */
export interface SimSwapEventRecord {
  id: string;
  msisdn: string;
  swappedAt: Date;
  source: SimSwapSource;
  reference: string | null;
  createdAt: Date;
}

/** A SIM change may be dated at most this far ahead of our clock (the operator's clocks drift a little). */
export const FUTURE_SKEW_MS = 60_000;

/** RFC 3339 date-time with its offset (`Z` or ±hh:mm), seconds and fraction optional. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
/** A reference: the importing system's event id, printable, no comma or quote (it is a CSV field). */
const REFERENCE = /^[A-Za-z0-9._:@/+=-]{1,200}$/;

/** E.164 digits without `+` (the Subscriber table's form), a leading `+` allowed; null otherwise. */
export function simSwapMsisdn(input: unknown): string | null {
  return typeof input === "string" ? normaliseMsisdn(input.trim(), { strict: true }) : null;
}

/**
 * A SIM change's time: RFC 3339 with an offset (a time without one is ambiguous), from 1990 on, and not later
 * than now + FUTURE_SKEW_MS (a change is recorded once it happened). Returns the Date or an error text.
 */
export function simSwapTime(input: unknown, now = new Date()): Date | string {
  if (typeof input !== "string" || !DATE_TIME.test(input.trim())) {
    return "swapped_at must be an RFC 3339 date-time with an offset (e.g. 2026-11-25T10:00:00Z)";
  }
  const at = new Date(input.trim());
  if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1990) return "swapped_at is not a valid date-time";
  if (at.getTime() > now.getTime() + FUTURE_SKEW_MS) return "swapped_at is in the future";
  return at;
}

/** A reference as given (trimmed), undefined when absent, or an error text. */
export function simSwapReference(input: unknown): string | undefined | { error: string } {
  if (input === undefined || input === null || input === "") return undefined;
  if (typeof input !== "string" || !REFERENCE.test(input.trim())) {
    return { error: "reference must be 1-200 characters of letters, digits and ._:@/+=-" };
  }
  return input.trim();
}

/**
 * The reference of an imported event that names none: the number and the instant, so importing the same line
 * twice still records one event.
 */
export function derivedReference(msisdn: string, swappedAt: Date): string {
  return `${msisdn}@${swappedAt.toISOString()}`;
}
