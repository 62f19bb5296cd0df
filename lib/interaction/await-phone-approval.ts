import { awaitAnswer } from "../out-of-band/await-answer";
import { logger } from "../log";
import { readBrowserId } from "../sessions/browser-cookie";
import { loadAuthorizationRequest } from "../authorization-request/load-authorization-request";
import { renderFailurePage } from "./render-failure-page";
import { SCREEN_HEADERS, servicePath, serviceUrl } from "./screen-headers";

/**
 * How long one check holds the request open for the handset's answer: the waiting screen's
 * "Check now" (no script) lands here, so the browser moves on within half a second of the answer, and
 * comes back to the waiting screen when nothing happened; its script holds it in a loop (JSON).
 * Below common proxy idle timeouts.
 */
export const PHONE_CHECK_MS = 25_000;

/**
 * GET /interaction/{id}/phone: where the "approve on your phone" waiting screen refreshes to. For
 * the browser the request is bound to only (lib/authorization-request). Waits (bounded) for the handset:
 * - approved (the request is `authenticated`) or rejected (`denied`): on to /authorize/resume/{id},
 *   which continues like after a verified code, or answers the client with access_denied;
 * - the handset request expired: back to the code screen with `phone_expired`; the check code typed on
 *   the phone did not match (the handset request ended): back to it with `phone_mismatch`;
 * - still waiting: back to the waiting screen.
 * The stored request itself expired: resume answers the client (access_denied, "expired").
 * With `Accept: application/json` (the waiting screen's script), the same answers as JSON instead of
 * 303: `{"waiting":true}` when nothing happened, else `{"next":"/path"}` (failure pages unchanged).
 */
export async function awaitPhoneApproval(req: Request, { id }: { id: string }): Promise<Response> {
  const json = /\bapplication\/json\b/.test(req.headers.get("accept") ?? "");
  const seeOther = (path: string, waiting = false) => json ? jsonAnswer(waiting ? { waiting: true } : { next: servicePath(path) })
    : redirect(path);
  try {
    const loaded = await loadAuthorizationRequest({ id, browserId: readBrowserId(req.headers.get("cookie")) });
    if (loaded.kind === "expired") return seeOther(`/authorize/resume/${id}`);
    if (loaded.kind === "completed") return renderFailurePage({ status: 410, kind: "completed" });
    if (loaded.kind === "wrong_browser") return renderFailurePage({ status: 403, kind: "wrongBrowser" });
    if (loaded.kind !== "ok") return renderFailurePage({ status: 404, kind: "notFound" });
    if (loaded.request.status !== "pending") return seeOther(`/authorize/resume/${id}`);
    // While this check holds, the browser is there: the handset may list and accept the request.
    const outcome = await awaitAnswer({ authorizationRequestId: id, maxMs: PHONE_CHECK_MS, signal: req.signal });
    if (outcome === "approved" || outcome === "rejected") return seeOther(`/authorize/resume/${id}`);
    if (outcome === "expired") return seeOther(`/interaction/${id}?e=phone_expired`);
    if (outcome === "mismatch") return seeOther(`/interaction/${id}?e=phone_mismatch`);
    return seeOther(`/interaction/${id}`, true);
  } catch (err) {
    logger.error({ err }, "phone approval check failed");
    return renderFailurePage({ status: 500, kind: "unexpected" });
  }
}

function jsonAnswer(body: { waiting: true } | { next: string }): Response {
  return new Response(JSON.stringify(body), { status: 200,
    headers: { ...SCREEN_HEADERS, "Content-Type": "application/json; charset=utf-8", Vary: "Accept" } });
}

function redirect(path: string): Response {
  return new Response(null, { status: 303, headers: { ...SCREEN_HEADERS, Location: serviceUrl(path) } });
}
