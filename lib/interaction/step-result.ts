import type { AuthorizationRequest } from "../authorization-request/authorization-request-row";
import type { AuthorizationParams } from "../oauth/authorize/types";

/** Messages the screens can show after a step (`?e=<code>`; the text comes from the dictionary). */
export type InteractionErrorCode =
  | "msisdn_invalid" | "code_invalid" | "code_expired" | "code_burnt" | "code_missing"
  | "pin_invalid" | "pin_missing" | "session_unusable" | "phone_expired" | "phone_mismatch"
  | "phone_limited"
  | "pin_locked" | "send_limited";

/**
 * Where a form submission sends the browser next (always with 303 See Other): back to the screens
 * (the next step, or the same one with a message), or to `/authorize/resume/{id}` once the screens
 * have done their part (see the status lifecycle in lib/oauth/authorize/types.ts). `setCookie`: the
 * browser's fresh cookie after a sign-in (lib/sessions/renew-browser-id.ts), sent with the redirect.
 */
export type StepResult =
  | {
    to: "interaction"; error?: InteractionErrorCode; step?: "msisdn"; retryAfter?: number;
    /** After a wrong PIN: tries left before the lockout (`?left=`, from the counter checkPin reserved). */
    pinTriesLeft?: number;
  }
  | { to: "resume"; setCookie?: string };

/** What every step handler receives: the request row (already checked for this browser), its params, the form. */
export interface StepInput {
  request: AuthorizationRequest;
  params: AuthorizationParams;
  browserId: string;
  form: Map<string, string>;
  /** The client's IP address (lib/http/client-ip.ts): per-IP limits and the audit log. */
  ip?: string;
  /** The browser's User-Agent: the coarse origin an approval request shows on the handset. */
  userAgent?: string | null;
}
