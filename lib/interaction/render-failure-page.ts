import { escapeHtml, htmlDocument } from "../http/html";
import { getMessages, type Messages } from "../i18n/get-messages";
import { SCREEN_HEADERS } from "./screen-headers";
import { brandName } from "../branding/brand";

export type FailureKind = "notFound" | "expired" | "completed" | "wrongBrowser" | "forbidden" | "badRequest" | "unexpected";


/**
 * The plain error page a screen's form handler answers with when it must not continue (no redirect:
 * the relying party's address is not trusted to receive anything at this point). Tiny, static HTML
 * that every display, including feature phones, can show.
 */
export function renderFailurePage({ status, kind, messages = getMessages([]) }: {
  status: number; kind: FailureKind; messages?: Messages;
}): Response {
  const t = messages.failure;
  const html = htmlDocument({ lang: messages.lang, title: t.title,
    head: `<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">`
      + `<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#0f172a}</style>`,
    body: `<main><p><b>${escapeHtml(brandName(messages))}</b></p><h1>${escapeHtml(t.title)}</h1><p role="alert">${escapeHtml(t[kind])}</p></main>` });
  return new Response(html, {
    status, headers: { ...SCREEN_HEADERS, "Content-Type": "text/html; charset=utf-8" },
  });
}
