import { escapeHtml, htmlDocument } from "../http/html";
import { ifDatabaseUnavailable } from "../http/if-database-unavailable";
import { unavailablePage } from "../http/unavailable-page";
import { logger } from "../log";
import { OAuthError } from "../oauth/errors";
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

/**
 * The answer of a screen's form handler (the sign-in screens, the account page) to what it threw: a bad
 * form (OAuthError from the body parser) is 400 or 413, a database outage the 503 page, anything else
 * logged (`what`) and the 500 page. Never a stack trace.
 */
export function formPostFailure(err: unknown, what: string): Response {
  if (err instanceof OAuthError) return renderFailurePage({ status: err.status === 413 ? 413 : 400, kind: "badRequest" });
  const unavailable = ifDatabaseUnavailable(err, () => unavailablePage());
  if (unavailable) return unavailable;
  logger.error({ err }, what);
  return renderFailurePage({ status: 500, kind: "unexpected" });
}
