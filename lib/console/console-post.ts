import { clientIp } from "../http/client-ip";
import { isSameOriginPost } from "../http/is-same-origin-post";
import { bodyParams, type Params } from "../http/params";
import { checkFormToken, formToken } from "../http/form-token";
import { formPostFailure } from "../interaction/render-failure-page";
import { serviceUrl } from "../interaction/screen-headers";
import { recordAuditEvent, type AuditInput } from "../audit/record-audit-event";
import { readConsoleStaff, type ConsoleStaff } from "./current-staff";
import { roleAllows, type StaffRole } from "./roles";
import { CONSOLE_SIGN_IN_PATH } from "./console-auth";
import { AdminError } from "../admin/admin-error";
import { escapeHtml, htmlDocument, PAGE_HEADERS } from "../http/html";

const CSRF_LABEL = "console-form";

/** The CSRF token of the console's forms for this session (a hidden `csrf_token` field in every form). */
export function consoleFormToken(staff: ConsoleStaff): string {
  return formToken(CSRF_LABEL, staff.sessionId);
}

/**
 * What a console action did: `back` is the console path (with query) to send the browser to, with
 * `done`/`e` added as a query parameter for the page's message; `audit`, when set, is written with the
 * acting member's id (type `console_<what>`); `setCookie`, e.g. a secret shown once.
 */
export type ConsoleActionResult = {
  back: string;
  /**
   * A secret to show exactly once (a new client secret, a staff member's password and TOTP enrolment): the
   * answer to the POST itself is then a 200 page showing it (never stored, never cached, not in a URL or
   * cookie), with a link to `back`. Reloading it re-sends the form, which the browser asks about first.
   */
  show?: ShowOnce;
  done?: string;
  e?: string;
  audit?: Omit<AuditInput, "staffId" | "ip">;
  setCookies?: string[];
};

export type ConsoleAction = (input: { staff: ConsoleStaff; form: Params; ip: string; req: Request }) =>
  Promise<ConsoleActionResult>;

/**
 * Turns a console action into a POST route handler: cross-site posts refused (403), the console
 * session required (else 303 to the sign-in page), the member's role at least `role` (else 403, and
 * the refusal audited), the form's CSRF token checked in constant time against the session, then the
 * action, answered by 303 See Other to `back` (RFC 9110 §15.4.4). Never a 500 for a bad request.
 */
export function consolePost(role: StaffRole, action: ConsoleAction) {
  return async (req: Request): Promise<Response> => {
    try {
      if (!isSameOriginPost(req)) return forbidden();
      const form = await bodyParams(req, { json: false });
      const staff = await readConsoleStaff(req.headers.get("cookie"));
      if (!staff) return seeOther(`${CONSOLE_SIGN_IN_PATH}?e=expired`);
      if (!checkFormToken(CSRF_LABEL, staff.sessionId, form.get("csrf_token"))) return forbidden();
      const ip = clientIp(req.headers);
      if (!roleAllows(staff.role, role)) {
        await recordAuditEvent({ type: `console_${new URL(req.url).pathname.split("/").slice(2).join("_").replaceAll("-", "_") || "action"}`,
          outcome: "denied", staffId: staff.id, ip, detail: { role: staff.role, needed: role } });
        return forbidden();
      }
      const result = await action({ staff, form, ip, req });
      if (result.audit) await recordAuditEvent({ ...result.audit, staffId: staff.id, ip });
      if (result.show) return showOncePage(result.show, result.back);
      const url = new URL(result.back, "http://console.invalid");
      if (result.done) url.searchParams.set("done", result.done);
      if (result.e) url.searchParams.set("e", result.e);
      const res = seeOther(url.pathname + url.search);
      for (const c of result.setCookies ?? []) res.headers.append("Set-Cookie", c);
      return res;
    } catch (err) {
      // A refusal of the shared operations (the CLI's AdminError: "redirect URI must be https", ...): 400, said.
      if (err instanceof AdminError) return badRequest(err.message);
      return formPostFailure(err, "console action failed");
    }
  };
}

function seeOther(path: string): Response {
  return new Response(null, { status: 303, headers: { Location: serviceUrl(path), "Cache-Control": "no-store" } });
}

/** What a show-once page says, in the member's language (the caller's catalogue). */
export interface ShowOnce {
  lang: string;
  title: string;
  /** Why it is shown once, what to do with it. */
  note: string;
  /** Label and value pairs; values are shown in <code>, selectable. */
  values: Array<[string, string]>;
  backLabel: string;
}

function showOncePage(show: ShowOnce, back: string): Response {
  const rows = show.values.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd><code>${escapeHtml(v)}</code></dd>`).join("");
  const body = `<main style="font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5">`
    + `<h1>${escapeHtml(show.title)}</h1><p>${escapeHtml(show.note)}</p>`
    + `<dl style="word-break:break-all">${rows}</dl>`
    + `<p><a href="${escapeHtml(serviceUrl(back))}" style="color:#1e40af">${escapeHtml(show.backLabel)}</a></p></main>`;
  return new Response(htmlDocument({ lang: show.lang, title: show.title, body }), { status: 200, headers: PAGE_HEADERS });
}

function badRequest(message: string): Response {
  return new Response(message, { status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

function forbidden(): Response {
  return new Response("Forbidden", { status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
