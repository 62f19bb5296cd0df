import { config } from "../config";
import { issuerBase } from "../http/issuer-base";
import { servicePath } from "../interaction/screen-headers";
import { SUPPORTED_LANGUAGES } from "./get-messages";
import { LANGUAGE_COOKIE } from "./request-language";

/** Where the on-page language switch links to (GET, a plain link: it works without script, on WAP too). */
export const LANGUAGE_SWITCH_PATH = "/language";
/** The chosen language is kept for a year. */
const COOKIE_AGE = 365 * 86_400;
const ORIGIN = "http://back.invalid";
const MAX_BACK = 1024;

/**
 * `back` when it is a path of this service (relative to the issuer, as the screens' own links are:
 * `/interaction/{id}?step=msisdn`), else `/`: never another origin (`//evil`, `/\evil`, `https:…`),
 * never a control character or a space, never the switch itself. The query is kept, the fragment
 * dropped. Never throws.
 */
export function safeBackPath(back: string | null | undefined): string {
  if (!back || back.length > MAX_BACK || !back.startsWith("/") || !/^[\x21-\x7e]+$/.test(back)) return "/";
  if (back.startsWith("//") || back.includes("\\")) return "/";
  let url: URL;
  try {
    url = new URL(back, ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== ORIGIN || url.pathname.startsWith("//")) return "/";
  if (url.pathname === LANGUAGE_SWITCH_PATH || url.pathname.startsWith(`${LANGUAGE_SWITCH_PATH}/`)) return "/";
  return url.pathname + url.search;
}

/** The switch link to `lang` from the screen at `back` (a path relative to the issuer). */
export function languageSwitchHref(lang: string, back: string): string {
  const query = new URLSearchParams({ lang, back: safeBackPath(back) });
  return servicePath(`${LANGUAGE_SWITCH_PATH}?${query.toString()}`);
}

/**
 * GET /language?lang=fr&back=/interaction/{id}: the on-page language switch (issue 17). Keeps a
 * supported `lang` in the `lang` cookie (not HttpOnly: it holds nothing secret; SameSite=Lax;
 * Secure over HTTPS; a year) and answers 303 See Other to `back` on this service (safeBackPath: no
 * open redirect). An unknown language changes nothing and still goes back. The chosen language then
 * wins over `ui_locales` and `Accept-Language` on every screen (request-language.ts).
 */
export function handleLanguageSwitch(req: Request): Response {
  let query: URLSearchParams;
  try {
    query = new URL(req.url).searchParams;
  } catch {
    query = new URLSearchParams();
  }
  const lang = query.get("lang") ?? "";
  const back = safeBackPath(query.get("back"));
  const headers = new Headers({
    Location: `${issuerBase()}${back}`,
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
  });
  if (SUPPORTED_LANGUAGES.includes(lang)) {
    const secure = config().ISSUER.startsWith("https:") ? "; Secure" : "";
    headers.append("Set-Cookie", `${LANGUAGE_COOKIE}=${lang}; Path=/; SameSite=Lax; Max-Age=${COOKIE_AGE}${secure}`);
  }
  return new Response(null, { status: 303, headers });
}
