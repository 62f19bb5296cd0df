import { config } from "../config";
import { servicePath } from "./screen-headers";

/**
 * Two cookies the number step leaves for the next screen of the same interaction (issue 17), never
 * in the URL (URLs are logged, a number is personal data). Both HttpOnly, SameSite=Lax, Secure over
 * HTTPS, and scoped to `/interaction/{id}` (the screen and its form handlers), so no other page or
 * interaction ever receives them:
 * - `signin_typed`: what was typed in the number field when the step refused it, shown back
 *   (escaped) in the field. At most 60 s, and cleared by the interaction's next form answer.
 * - `signin_sent_to`: the masked number the code went to (`+44••••••0001`), for the code screen. Set
 *   for every number, known or not (it is what this browser typed), so it tells nothing about who is
 *   a subscriber; the digits of an unknown number are still not stored on the server. It lives as
 *   long as the request and is cleared when the number step is shown again or the sign-in ends.
 */
const TYPED = "signin_typed";
const SENT_TO = "signin_sent_to";
export const TYPED_FLASH_SECONDS = 60;

/** What the code screen may show of a number: the masked form of lib/messaging/mask-msisdn.ts only. */
const MASKED = /^\+(?:\d{2}•{1,9}\d{4}|•{7})$/;

function cookie(id: string, name: string, value: string, maxAge: number): string {
  const secure = config().ISSUER.startsWith("https:") ? "; Secure" : "";
  return `${name}=${encodeURIComponent(value)}; Path=${servicePath(`/interaction/${id}`)}; HttpOnly; SameSite=Lax; `
    + `Max-Age=${Math.max(0, Math.floor(maxAge))}${secure}`;
}

/** Set-Cookie values keeping `typed` for the next screen (or clearing it). */
export function typedFlashCookie(id: string, typed: string | null): string {
  return typed ? cookie(id, TYPED, typed.slice(0, 40), TYPED_FLASH_SECONDS) : cookie(id, TYPED, "", 0);
}

/** Set-Cookie value keeping the masked number the code went to until `until` (or clearing it). */
export function sentToCookie(id: string, masked: string | null, until?: Date): string {
  return masked && until ? cookie(id, SENT_TO, masked, (until.getTime() - Date.now()) / 1000) : cookie(id, SENT_TO, "", 0);
}

export interface SignInFlash {
  /** The refused number as typed (plain text; React escapes it into the field's value). */
  typedMsisdn?: string;
  /** The masked number the code went to. */
  sentTo?: string;
}

/** Reads both cookies from a request's Cookie header; anything malformed is ignored. */
export function readSignInFlash(header: string | null | undefined): SignInFlash {
  const out: SignInFlash = {};
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name !== TYPED && name !== SENT_TO) continue;
    let value: string;
    try { value = decodeURIComponent(part.slice(eq + 1).trim()); } catch { continue; }
    if (name === TYPED) {
      // Printable text only, as short as the field allows.
      const typed = value.replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 40);
      if (typed) out.typedMsisdn = typed;
    } else if (MASKED.test(value)) {
      out.sentTo = value;
    }
  }
  return out;
}
