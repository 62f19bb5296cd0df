import { cache } from "react";
import { headers } from "next/headers";
import { readBrowserId } from "../sessions/browser-cookie";
import { currentScreenOnce, failureContextOnce } from "../interaction/current-screen-once";
import { getMessages, type Messages } from "./get-messages";
import { screenLanguages } from "./request-language";
import { setSwitchBack } from "./switch-back";
import { safeBackPath } from "./switch-language";

/** The request header proxy.ts sets to the page's path and query (a client's own value is replaced). */
export const PAGE_PATH_HEADER = "x-page-path";

/** Pages written in English only (the developer site and the playground): `<html lang="en">` whatever the browser asks. */
const ENGLISH_ONLY = [/^\/$/, /^\/(docs|policy|terms|playground)(\/|$)/];
const INTERACTION = /^\/interaction\/([A-Za-z0-9_-]{22})$/;

/**
 * The language of the page being rendered, computed once per request (React `cache()`) for the root
 * layout (`<html lang>`, `<title>`), the page itself and its language switch (whose way back it
 * records): the language chosen with the switch (`lang` cookie), then, on a sign-in screen, the
 * stored request's `ui_locales` (the read the page makes anyway, shared: no extra statement), then
 * `Accept-Language`, else English. Never throws: a failed read gives the browser's language.
 */
export const pageLanguage = cache(async (): Promise<Messages> => {
  const h = await headers();
  const path = safeBackPath(h.get(PAGE_PATH_HEADER));
  setSwitchBack(path);
  const url = new URL(path, "http://page.invalid");
  if (ENGLISH_ONLY.some((re) => re.test(url.pathname))) return getMessages(["en"]);
  const acceptLanguage = h.get("accept-language");
  const cookie = h.get("cookie");
  let uiLocales: readonly string[] = [];
  const id = INTERACTION.exec(url.pathname)?.[1];
  if (id) {
    try {
      const browserId = readBrowserId(cookie);
      const current = await currentScreenOnce(id, browserId, url.searchParams.get("step") === "msisdn");
      uiLocales = current ? current.params.uiLocales : (await failureContextOnce(id, acceptLanguage, browserId)).languages;
    } catch { /* the page answers a failed read itself (503 page); the browser's language meanwhile */ }
  }
  return getMessages(screenLanguages({ cookie, uiLocales, acceptLanguage }));
});
