import { getMessages, SUPPORTED_LANGUAGES, type Messages } from "./get-messages";

const MAX_TAGS = 10;
const TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/**
 * The language tags of an `Accept-Language` header (RFC 9110 §12.5.4), most preferred first:
 * q-values honoured, `q=0` and malformed entries dropped, `*` ignored, at most ten kept. Never throws.
 */
export function acceptLanguageTags(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: { tag: string; q: number; i: number }[] = [];
  header.slice(0, 512).split(",").slice(0, 32).forEach((part, i) => {
    const [rawTag, ...params] = part.trim().split(";");
    const tag = (rawTag ?? "").trim();
    if (!TAG.test(tag)) return;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](\.\d{0,3})?)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (q > 0) entries.push({ tag, q, i });
  });
  return entries.sort((a, b) => b.q - a.q || a.i - b.i).slice(0, MAX_TAGS).map((e) => e.tag);
}

/**
 * A space-separated list of language tags (`ui_locales`, `claims_locales`, OIDC Core §3.1.2.1): the
 * well-formed tags once each, in order; anything else is dropped, never refused (no error for
 * unsupported locales).
 */
export function languageTagList(value: string | undefined): string[] {
  if (!value) return [];
  return [...new Set(value.split(" ").filter((tag) => TAG.test(tag)))];
}

/** The cookie holding the language chosen with the on-page switch (GET /language). */
export const LANGUAGE_COOKIE = "lang";

/** The language chosen with the switch (the `lang` cookie), when it is one we have; else undefined. */
export function chosenLanguage(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.slice(0, 8192).split(";")) {
    const [k, v] = part.trim().split("=");
    if (k === LANGUAGE_COOKIE && v && SUPPORTED_LANGUAGES.includes(v)) return v;
  }
  return undefined;
}

/**
 * The language preference of a screen, most preferred first (issue 17): the language chosen with
 * the on-page switch (the `lang` cookie), then the request's `ui_locales` (OIDC Core §3.1.2.1),
 * then the browser's `Accept-Language`; getMessages() takes the first it has, else English.
 */
export function screenLanguages({ cookie, uiLocales = [], acceptLanguage }: {
  cookie: string | null | undefined; uiLocales?: readonly string[]; acceptLanguage: string | null | undefined;
}): string[] {
  const chosen = chosenLanguage(cookie);
  return [...(chosen ? [chosen] : []), ...uiLocales, ...acceptLanguageTags(acceptLanguage)];
}

/**
 * The texts for a request as far as it can be read: the language chosen with the switch (`lang`
 * cookie) first, then its `ui_locales` query parameter (OIDC Core §3.1.2.1, space-separated), then
 * its `Accept-Language` header, else English.
 */
export function requestMessages(req: Request | undefined): { lang: string; t: Messages } {
  let tags: string[] = [];
  if (req) {
    const chosen = chosenLanguage(req.headers.get("cookie"));
    if (chosen) return { lang: chosen, t: getMessages([chosen]) };
    try {
      const uiLocales = new URL(req.url).searchParams.get("ui_locales") ?? "";
      tags = languageTagList(uiLocales.slice(0, 256)).slice(0, MAX_TAGS);
    } catch { /* an unreadable URL: fall back to the header */ }
    tags = [...tags, ...acceptLanguageTags(req.headers.get("accept-language"))];
  }
  const t = getMessages(tags);
  return { lang: t.lang, t };
}
