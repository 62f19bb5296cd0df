import type { Display } from "../../components/display/display-ui";
import { getMessages, type Messages } from "../i18n/get-messages";
import { acceptLanguageTags, languageTagList } from "../i18n/request-language";
import { DISPLAY_VALUES } from "../oauth/scopes";

/** How the account page is shown: one of the four displays and a language, from its own address. */
export interface AccountOptions {
  display: Display;
  /** The page's language (`en`, `fr`), passed on as `ui_locales` to the sign-in and back. */
  lang: string;
  t: Messages;
}

/**
 * `display` (OIDC Core §3.1.2.1 values, default `page`) and `ui_locales` (else `Accept-Language`,
 * else English) of an account page address. Anything unknown falls back; nothing is refused.
 */
export function accountOptions({ display, uiLocales, acceptLanguage }: {
  display: string | null | undefined; uiLocales: string | null | undefined; acceptLanguage: string | null;
}): AccountOptions {
  const shown = (DISPLAY_VALUES as readonly string[]).includes(display ?? "") ? (display as Display) : "page";
  const t = getMessages([...languageTagList((uiLocales ?? "").slice(0, 256)), ...acceptLanguageTags(acceptLanguage)]);
  return { display: shown, lang: t.lang, t };
}

/** The query that keeps the display and language from page to page (`?display=wap&ui_locales=fr`). */
export function accountQuery({ display, lang }: Pick<AccountOptions, "display" | "lang">,
  extra: Record<string, string> = {}): string {
  return `?${new URLSearchParams({ display, ui_locales: lang, ...extra })}`;
}
