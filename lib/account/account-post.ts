import { clientIp } from "../http/client-ip";
import { isSameOriginPost } from "../http/is-same-origin-post";
import { bodyParams, type Params } from "../http/params";
import { formPostFailure, renderFailurePage } from "../interaction/render-failure-page";
import { SCREEN_HEADERS, serviceUrl } from "../interaction/screen-headers";
import { checkAccountCsrfToken } from "./account-csrf";
import { accountOptions, accountQuery } from "./account-options";
import { readAccountSession, type AccountSession } from "./read-account-session";

/** What an account action tells the page (`?done=` or `?e=`), and a cookie to set. */
export type AccountActionResult = { done: string; setCookie?: string } | { e: string };

export type AccountAction = (input: { session: AccountSession; form: Params; ip: string }) => Promise<AccountActionResult>;

/**
 * Turns an account action into `POST /account/<action>`: cross-site posts refused, the form parsed
 * (repeated fields refused), the account session required (else back to the page, which asks to sign
 * in), the CSRF token checked in constant time against the session, then the action, answered by
 * 303 See Other to the page in the same display and language (RFC 9110 §15.4.4). Never a 500 for a
 * bad request; a database outage is the 503 page.
 */
export function accountPost(action: AccountAction) {
  return async (req: Request): Promise<Response> => {
    try {
      if (!isSameOriginPost(req)) return renderFailurePage({ status: 403, kind: "forbidden" });
      const form = await bodyParams(req, { json: false });
      const options = accountOptions({ display: form.get("display"), uiLocales: form.get("ui_locales"),
        acceptLanguage: req.headers.get("accept-language") });
      const session = await readAccountSession({ cookieHeader: req.headers.get("cookie") });
      if (!session) return seeOther(accountQuery(options, { e: "expired" }));
      if (!checkAccountCsrfToken({ tokenHash: session.tokenHash, token: form.get("csrf_token") })) {
        return renderFailurePage({ status: 403, kind: "forbidden", messages: options.t });
      }
      const result = await action({ session, form, ip: clientIp(req.headers) });
      const res = seeOther(accountQuery(options, "done" in result ? { done: result.done } : { e: result.e }));
      if ("setCookie" in result && result.setCookie) res.headers.append("Set-Cookie", result.setCookie);
      return res;
    } catch (err) {
      return formPostFailure(err, "account action failed");
    }
  };
}

function seeOther(query: string): Response {
  return new Response(null, { status: 303, headers: { ...SCREEN_HEADERS, Location: serviceUrl(`/account${query}`) } });
}
