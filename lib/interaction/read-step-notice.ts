import type { Messages } from "../i18n/get-messages";
import { PIN_FAILURES_BEFORE_LOCKOUT } from "../security/limits";

/** The longest wait a screen will announce (the last PIN lockout step is 24 h). */
const MAX_WAIT_MS = 2 * 86_400_000;

export interface StepNotice {
  /** Localized message of the last failed step. */
  error?: string;
  /** Its code (`?e=`), so a step can hide a form that cannot work until `retryAt`. */
  errorCode?: string;
  /** When a lockout or limit ends (`?until=`, Unix seconds, set with Retry-After by the step's 303). */
  retryAt?: Date;
  /** After a wrong PIN (`?left=`): PIN tries left before the lockout, as the lockout counter said. */
  pinTriesLeft?: number;
}

/**
 * Reads a screen's `?e=`, `?until=` and `?left=` (lib/interaction/handle-interaction-post.ts) into
 * what the step components show: a known message only
 * (never the query's text), a time only when it is in the future and plausible, a count of PIN tries
 * only with `pin_invalid` and within the policy. Display only: the limits are enforced on each POST.
 */
export function readStepNotice({ e, until, left, t, now = Date.now() }: {
  e: unknown; until: unknown; left?: unknown; t: Messages; now?: number;
}): StepNotice {
  if (typeof e !== "string" || !Object.hasOwn(t.errors, e)) return {};
  const at = typeof until === "string" && /^\d{1,12}$/.test(until) ? Number(until) * 1000 : NaN;
  const retryAt = at > now && at - now <= MAX_WAIT_MS ? new Date(at) : undefined;
  const n = e === "pin_invalid" && typeof left === "string" && /^\d$/.test(left) ? Number(left) : 0;
  const pinTriesLeft = n >= 1 && n < PIN_FAILURES_BEFORE_LOCKOUT ? n : undefined;
  return { error: t.errors[e], errorCode: e, retryAt, pinTriesLeft };
}
