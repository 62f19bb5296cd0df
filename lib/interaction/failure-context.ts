import { findRequestOutcome } from "../authorization-request/find-request-outcome";
import type { AuthorizationParams } from "../oauth/authorize/types";
import { acceptLanguageTags } from "../i18n/request-language";
import { DISPLAY_VALUES } from "../oauth/scopes";
import { servicePath } from "./screen-headers";

const DISPLAYS: ReadonlySet<string> = new Set(DISPLAY_VALUES);

/**
 * Why the screen cannot go on, as far as this browser may know: the browser that started the request
 * learns whether it expired, was cancelled or is finished; any other browser (or an unknown id) only
 * the one generic text (`unusable`), never which case.
 */
export type FailureReason = "unusable" | "expired" | "denied" | "completed";

export type FailureContext = {
  display: AuthorizationParams["display"];
  languages: string[];
  reason: FailureReason;
  /**
   * The way back to the app: /authorize/resume/{id}, which answers the relying party with
   * `access_denied` (with `state` and `iss`) at its registered redirect URI after checking that the
   * client and the URI are still registered. Only for the starting browser's expired or cancelled
   * request; otherwise the page says to start again from the app.
   */
  backHref?: string;
};

/**
 * How to show the failure page of an interaction that cannot continue (unknown, expired, finished,
 * denied or another browser's): in the stored request's display and `ui_locales` when its row
 * exists, followed by the browser's Accept-Language; else the default display. It only reads (a
 * foreign browser holding the id changes nothing) and gives a foreign browser nothing of the request
 * but its display and language. Never throws: any failure gives the default.
 */
export async function failureContext(id: string, acceptLanguage: string | null, browserId: string | null = null):
  Promise<FailureContext> {
  const fallback = acceptLanguageTags(acceptLanguage);
  const generic: FailureContext = { display: "page", languages: fallback, reason: "unusable" };
  try {
    const found = await findRequestOutcome({ id, browserId });
    if (found === null) return generic;
    const p = JSON.parse(found.params) as Partial<AuthorizationParams>;
    const display = p.display && DISPLAYS.has(p.display) ? p.display : "page";
    const uiLocales = Array.isArray(p.uiLocales) ? p.uiLocales.filter((l) => typeof l === "string") : [];
    const shown = { display, languages: [...uiLocales, ...fallback] };
    if (!found.ownBrowser || found.outcome === "open") return { ...shown, reason: "unusable" };
    if (found.outcome === "completed") return { ...shown, reason: "completed" };
    return { ...shown, reason: found.outcome, backHref: servicePath(`/authorize/resume/${id}`) };
  } catch {
    return generic;
  }
}
