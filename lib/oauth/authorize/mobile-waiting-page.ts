import { escapeHtml, htmlDocument, PAGE_HEADERS } from "../../http/html";
import { issuerBase } from "../../http/issuer-base";
import { getMessages } from "../../i18n/get-messages";
import { screenLanguages } from "../../i18n/request-language";
import type { ClientProvenance } from "../../clients/client-provenance";
import type { AuthorizationParams } from "./types";

/** The waiting page's languages: the one chosen with the switch, the request's `ui_locales`, Accept-Language. */
export function waitingPageLanguages(params: Pick<AuthorizationParams, "uiLocales">, req: Request): string[] {
  return screenLanguages({ cookie: req.headers.get("cookie"), uiLocales: params.uiLocales,
    acceptLanguage: req.headers.get("accept-language") });
}

/**
 * The consumption device's page while a `prompt=mobile` request waits for the handset: the check
 * code the subscriber types on the phone (number matching), the app and the expiry. No form and no
 * script: it reloads itself at once into /authorize/wait/{id}, which holds the response (up to 50 s)
 * while the browser keeps showing this page, and comes back here when nothing happened. This is the
 * one screen `prompt=mobile` shows, a deliberate deviation from the interface's "show no UI": without
 * it there is nothing to match the handset's request against (docs/interface.md, "Deviations from the standards").
 * In the request's language (`languages`: waitingPageLanguages). The refresh is immediate (a delay of
 * 0 is a redirect, not a timed refresh: axe's meta-refresh rule passes); the waiting is done by the
 * held response, and the page stays readable meanwhile. A self-registered app carries its mark
 * (lib/clients/client-provenance.ts: the host of the request's redirect_uri), as on the other screens.
 */
export function mobileWaitingPage({ requestId, checkCode, clientName, mark, expiresAt, languages }: {
  requestId: string; checkCode: string; clientName: string; mark: ClientProvenance | null; expiresAt: Date;
  languages: readonly string[];
}): Response {
  const t = getMessages(languages);
  const m = t.mobileWait;
  const wait = `${issuerBase()}/authorize/wait/${requestId}`;
  const until = `${expiresAt.toISOString().slice(11, 16)} UTC`;
  const body = htmlDocument({ lang: t.lang, title: t.phone.title,
    head: `<meta http-equiv="refresh" content="0;url=${escapeHtml(wait)}">`
      + "<style>body{font-family:sans-serif;max-width:30rem;margin:1rem auto;padding:0 1rem}</style>",
    body: `<main>
<h1 style="font-size:1.25rem">${escapeHtml(t.phone.title)}</h1>
<p>${escapeHtml(m.asks(clientName))}</p>
${mark ? `<p class="client-mark self-registered" style="border:1px solid #b45309;background:#fffbeb;color:#451a03;`
  + `padding:.25rem .5rem">${escapeHtml(mark.host === null ? t.clientMark.selfRegisteredUnverified
    : t.clientMark.selfRegistered(mark.host))}</p>\n` : ""}<p>${escapeHtml(t.phone.check)}</p>
<p id="check-code" style="font-size:2.5rem;font-weight:bold;letter-spacing:.2em;margin:.5rem 0">${escapeHtml(checkCode)}</p>
<p role="status">${escapeHtml(m.waiting(until))}</p>
<p style="color:#444">${escapeHtml(m.notYou)}</p>
</main>` });
  return new Response(body, { status: 200, headers: PAGE_HEADERS });
}
