import { config } from "../../config";
import { sessionState } from "../../sessions/browser-state";
import { appendHeader, TextBodyResponse } from "../../http/text-body-response";

/** Where the outcome of a request goes once its client and redirect URI are verified. */
export interface RedirectTarget {
  redirectUri: string;
  /** The request's `state`, echoed unchanged (interface "Return to the redirect address"). */
  state?: string;
  /** 302 after GET; 303 after POST so the browser never re-posts (RFC 9700 §4.12). */
  status: 302 | 303;
}

/**
 * A successful authorization response with `session_state` (OIDC Session Management 1.0 §3) and
 * the browser-state cookie the check_session_iframe compares it with (lib/sessions/browser-state.ts).
 */
export function redirectWithSessionState(target: RedirectTarget & { clientId: string }, result: Record<string, string>,
  { browserState, setCookie }: { browserState: string; setCookie?: string }): Response {
  const state = sessionState({ clientId: target.clientId, redirectUri: target.redirectUri, browserState });
  const res = redirectToClient(target, { ...result, session_state: state });
  if (setCookie) appendHeader(res, "Set-Cookie", setCookie);
  return res;
}

/**
 * The authorization response (RFC 6749 §4.1.2): `redirect_uri` with the result appended to the
 * query it already has (kept byte for byte), `state` echoed and `iss` added (RFC 9207). A fragment
 * in a registered URI is dropped (RFC 6749 §3.1.2 forbids one).
 */
export function redirectToClient(target: RedirectTarget, result: Record<string, string>): Response {
  const params: Array<[string, string]> = Object.entries(result);
  if (target.state !== undefined) params.push(["state", target.state]);
  params.push(["iss", config().ISSUER]);
  const base = target.redirectUri.split("#")[0]!;
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
  const sep = !base.includes("?") ? "?" : /[?&]$/.test(base) ? "" : "&";
  return new TextBodyResponse(null, {
    status: target.status,
    headers: { Location: `${base}${sep}${query}`, "Cache-Control": "no-store", Pragma: "no-cache",
      "Referrer-Policy": "no-referrer" },
  });
}

/**
 * An error response to the client (RFC 6749 §4.1.2.1). `error_description` is limited to the
 * characters the RFC allows (%x20-21 / %x23-5B / %x5D-7E); anything else is dropped.
 */
export function redirectError(target: RedirectTarget, error: string, description: string): Response {
  const safe = description.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "").slice(0, 300);
  return redirectToClient(target, { error, error_description: safe });
}
