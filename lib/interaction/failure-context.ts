import { findRequestParams } from "../authorization-request/find-request-params";
import { isRequestId } from "../authorization-request/request-id";
import type { AuthorizationParams } from "../oauth/authorize/types";
import { acceptLanguageTags } from "../i18n/request-language";
import { DISPLAY_VALUES } from "../oauth/scopes";

const DISPLAYS: ReadonlySet<string> = new Set(DISPLAY_VALUES);

export type FailureContext = { display: AuthorizationParams["display"]; languages: string[] };

/**
 * How to show the failure page of an interaction that cannot continue (unknown, expired, finished,
 * denied or another browser's): in the stored request's display and `ui_locales` when its row
 * exists, followed by the browser's Accept-Language; else the default display. It only reads (a
 * foreign browser holding the id changes nothing) and gives nothing of the request away but its
 * display and language. Never throws: any failure gives the default.
 */
export async function failureContext(id: string, acceptLanguage: string | null): Promise<FailureContext> {
  const fallback = acceptLanguageTags(acceptLanguage);
  if (!isRequestId(id)) return { display: "page", languages: fallback };
  try {
    const params = await findRequestParams({ id });
    if (params === null) return { display: "page", languages: fallback };
    const p = JSON.parse(params) as Partial<AuthorizationParams>;
    const display = p.display && DISPLAYS.has(p.display) ? p.display : "page";
    const uiLocales = Array.isArray(p.uiLocales) ? p.uiLocales.filter((l) => typeof l === "string") : [];
    return { display, languages: [...uiLocales, ...fallback] };
  } catch {
    return { display: "page", languages: fallback };
  }
}
