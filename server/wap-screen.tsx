import { renderToStaticMarkup } from "react-dom/server";
import { DisplayFrame } from "../components/display/display-frame";
import { ScreenStep } from "../components/interaction/screen-step";
import { FailureStep } from "../components/interaction/failure-step";
import { failureContext } from "../lib/interaction/failure-context";
import { readStepNotice } from "../lib/interaction/read-step-notice";
import { escapeHtml, htmlDocument } from "../lib/http/html";
import { formActionPolicy, hstsHeaders, pageCsp } from "../lib/http/security-headers";
import { brandName } from "../lib/branding/brand";
import { getMessages } from "../lib/i18n/get-messages";
import { screenLanguages } from "../lib/i18n/request-language";
import { renderWithSwitchBack } from "../lib/i18n/switch-back";
import { currentScreen } from "../lib/interaction/current-screen";
import { randomToken } from "../lib/crypto";
import { isRequestId } from "../lib/authorization-request/request-id";
import { readBrowserId } from "../lib/sessions/browser-cookie";

/**
 * `display=wap` sign-in screens for feature phones (OIDC Core §3.1.2.1), rendered here as static
 * HTML from the very step components app/interaction/[id]/page.tsx uses, without Next.js's page
 * shell: no script at all (its React runtime alone is >100 KB), no stylesheet, a few KB in all. The
 * forms post to the same /interaction/{id}/<step> route handlers as every other display.
 *
 * `wapScreen` answers null for anything that is not a WAP request (other displays, unknown ids, the
 * database failing): Next.js then renders the page as usual (its failure page, its 503 handling). A
 * WAP request that cannot continue here (expired, finished, denied, another browser's) gets the
 * failure page without script, in the request's language.
 */
export async function wapScreen({ id, cookie, query, acceptLanguage = null }: {
  id: string; cookie: string | null; query: URLSearchParams; acceptLanguage?: string | null;
}): Promise<{ html: string; headers: Record<string, string> } | null> {
  if (!isRequestId(id)) return null;
  try {
    // One read of the row: it decides WAP or not, then the same choice as the React page (currentScreen).
    const current = await currentScreen({ id, browserId: readBrowserId(cookie),
      wantsNumber: query.get("step") === "msisdn", display: "wap" });
    if (!current) return await wapFailure(id, cookie, acceptLanguage, query);
    const { params: p, screen, csrf, mark } = current;
    // The language chosen with the switch, else ui_locales, else Accept-Language (lib/i18n/request-language.ts).
    const t = getMessages(screenLanguages({ cookie, uiLocales: p.uiLocales, acceptLanguage }));
    const notice = readStepNotice({ e: query.get("e"), until: query.get("until"), left: query.get("left"), t });
    const common = { id, csrf, t, clientName: p.clientName, mark, ...notice };
    const body = renderWithSwitchBack(screenPath(id, query), () => renderToStaticMarkup(
      <DisplayFrame display="wap" t={t}>
        {(ui) => <ScreenStep {...common} ui={ui} screen={screen} params={p} />}
      </DisplayFrame>,
    ));
    const nonce = randomToken(18);
    // No stylesheet, but targets of at least 24 x 24 CSS px and a visible focus indicator (issue 17).
    const html = htmlDocument({ lang: t.lang, title: brandName(t), body,
      head: `<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow">`
        + `<style nonce="${nonce}">button,input[type=submit]{min-height:24px;min-width:24px}`
        + `input:focus-visible,select:focus-visible,textarea:focus-visible{outline:2px solid #1d4ed8;outline-offset:2px}</style>`
        + `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(formActionPolicy(p.redirectUri))}">` });
    // The policy proxy.ts gives every screen (its nonce allows the one style element: the page has no script),
    // the form targets in the <meta> policy above, exactly as on the other displays.
    return { html, headers: { "Content-Security-Policy": pageCsp({ nonce, formAction: false }),
      ...hstsHeaders(), "Content-Type": "text/html; charset=utf-8" } };
  } catch {
    return null;
  }
}

/** The failure page of a stored display=wap request that cannot continue, or null for any other. */
async function wapFailure(id: string, cookie: string | null, acceptLanguage: string | null, query: URLSearchParams) {
  const ctx = await failureContext(id, acceptLanguage, readBrowserId(cookie));
  if (ctx.display !== "wap") return null;
  const t = getMessages(screenLanguages({ cookie, uiLocales: ctx.languages, acceptLanguage }));
  const body = renderWithSwitchBack(screenPath(id, query), () => renderToStaticMarkup(
    <DisplayFrame display="wap" t={t}>
      {(ui) => <FailureStep t={t} ui={ui} reason={ctx.reason} backHref={ctx.backHref} />}
    </DisplayFrame>,
  ));
  const html = htmlDocument({ lang: t.lang, title: brandName(t), body,
    head: `<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex, nofollow">`
      + `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(formActionPolicy(undefined))}">` });
  return { html, headers: { "Content-Security-Policy": pageCsp({ nonce: randomToken(18), formAction: false }),
    ...hstsHeaders(), "Content-Type": "text/html; charset=utf-8" } };
}

/** This screen's path and query, where its language switch comes back to. */
function screenPath(id: string, query: URLSearchParams): string {
  const search = query.toString();
  return `/interaction/${id}${search ? `?${search}` : ""}`;
}
