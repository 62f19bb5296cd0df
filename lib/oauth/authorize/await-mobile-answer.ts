import type { RegisteredClient } from "../../clients/get-client";
import { db } from "../../db";
import { config } from "../../config";
import { escapeHtml, PAGE_HEADERS } from "../../http/html";
import { waitForAnswer, type DeviceOutcome } from "../../devices/wait-for-answer";
import { AccessDenied } from "../errors";
import { issueCode } from "./issue-code";
import { redirectToClient, type RedirectTarget } from "./redirect-to-client";
import type { AuthorizationParams } from "./types";

/**
 * How long one HTTP response is held open. Below common proxy idle timeouts (60 s) so no
 * intermediary cuts it; after it the browser is sent on to /authorize/wait/{id} and waits again.
 */
export const MOBILE_WAIT_MS = 50_000;

/**
 * Holds the consumption device's request until the handset answers, then ends like any
 * authorization (interface "Return to the redirect address"):
 * - approved: the code (issueCode completes the stored request atomically) with state and iss;
 * - rejected: `access_denied`;
 * - expired before an answer: `access_denied` as well ("expired on the handset"): the Mobile
 *   Connect interface lists no timeout code for the authorization endpoint, RFC 6749 §4.1.2.1 has
 *   none, and OIDC `interaction_required` would wrongly invite the RP to retry with a screen;
 * - still waiting when the bound (MOBILE_WAIT_MS or the expiry) passes, or the client went away:
 *   a tiny page that reloads itself at /authorize/wait/{id} (no user action, no script).
 */
export async function awaitMobileAnswer({ requestId, deviceRequestId, params, client, target, expiresAt, signal }: {
  requestId: string; deviceRequestId: string; params: AuthorizationParams; client: RegisteredClient;
  target: RedirectTarget; expiresAt: Date; signal?: AbortSignal;
}): Promise<Response> {
  const remaining = expiresAt.getTime() - Date.now();
  const outcome = remaining <= 0
    ? await expireNow(deviceRequestId)
    : await waitForAnswer({ id: deviceRequestId, maxMs: Math.min(MOBILE_WAIT_MS, remaining + 1_000), signal });
  if (outcome === "rejected") throw new AccessDenied("The subscriber rejected the request on their handset");
  if (outcome === "expired") throw new AccessDenied("The authorization request expired on the handset before it was answered");
  if (outcome === "waiting") return waitingPage(requestId, params.bindingMessage);
  const row = await db.authorizationRequest.findUnique({ where: { id: requestId }, select: { sessionId: true } });
  const session = row?.sessionId
    ? await db.session.findUnique({ where: { id: row.sessionId },
        select: { id: true, subscriberId: true, authTime: true, acr: true, amr: true } })
    : null;
  if (!session) throw new AccessDenied("The authorization request is no longer valid");
  const code = await issueCode({ params, client, session, requestId });
  return redirectToClient(target, { code });
}

/** Marks a request past its expiry; an answer that won just before keeps its outcome. */
async function expireNow(id: string): Promise<DeviceOutcome> {
  await db.deviceRequest.updateMany({ where: { id, status: "pending" }, data: { status: "expired" } });
  const row = await db.deviceRequest.findUnique({ where: { id }, select: { status: true } });
  return row?.status === "approved" || row?.status === "rejected" ? row.status : "expired";
}

function waitingPage(requestId: string, bindingMessage: string | undefined): Response {
  const text = bindingMessage ? ` Check that your phone shows: ${escapeHtml(bindingMessage)}` : "";
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="refresh" content="0;url=${config().ISSUER.replace(/\/$/, "")}/authorize/wait/${requestId}"><title>Approve on your phone</title></head>
<body><p>Waiting for your approval on your phone.${text}</p></body></html>`;
  return new Response(body, { status: 200, headers: PAGE_HEADERS });
}

