import { getClient } from "../../clients/get-client";
import { db } from "../../db";
import { randomToken, safeEqual } from "../../crypto";
import { browserIdHash, readBrowserId } from "../../sessions/browser-cookie";
import { AccessDenied } from "../errors";
import { continueAuthorization } from "./continue-authorization";
import { AuthorizePageError } from "./errors";
import { alreadyCompleted } from "./issue-code";
import type { RedirectTarget } from "./redirect-to-client";
import { respondWithError } from "./respond-with-error";
import type { AuthorizationParams } from "./types";

/** Interaction ids are randomToken(16): 22 base64url characters. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/**
 * GET /authorize/resume/{id}: where the screens send the browser after each step. Decides what is
 * next with the same rules as /authorize (another screen, the error redirect, or the code).
 * Unknown ids, another browser's request (the cookie must match the one the request was bound to:
 * CSRF / session-fixation defence) and finished requests get the error page; an expired or
 * denied one is answered to the client with `access_denied`.
 */
export async function handleResume(req: Request, { id }: { id: string }): Promise<Response> {
  const requestId = req.headers.get("x-request-id")?.slice(0, 64) || randomToken(9);
  const ctx: { target?: RedirectTarget } = {};
  let res: Response;
  try {
    res = await resume(req, id, ctx);
  } catch (err) {
    res = respondWithError(err, ctx.target, requestId);
  }
  res.headers.set("X-Request-Id", requestId);
  return res;
}

const UNKNOWN = "This sign-in request is unknown, belongs to another browser or has expired. Return to the application and start again.";

async function resume(req: Request, id: string, ctx: { target?: RedirectTarget }): Promise<Response> {
  const browserId = readBrowserId(req.headers.get("cookie"));
  const row = REQUEST_ID_PATTERN.test(id) && browserId
    ? await db.authorizationRequest.findUnique({
        where: { id }, select: { id: true, status: true, sessionId: true, params: true, browserIdHash: true, expiresAt: true },
      })
    : null;
  if (!row || !browserId || !safeEqual(row.browserIdHash, browserIdHash(browserId))) {
    throw new AuthorizePageError("invalid_request", UNKNOWN);
  }
  if (row.status === "completed") throw alreadyCompleted();
  const params = JSON.parse(row.params) as AuthorizationParams;
  const client = await getClient({ clientId: params.clientId });
  if (!client?.active || !client.redirectUris.includes(params.redirectUri)) {
    throw new AuthorizePageError("invalid_request", "The application is no longer available.");
  }
  ctx.target = { redirectUri: params.redirectUri, state: params.state, status: 302 };
  if (row.status === "denied") throw new AccessDenied("User denied the request");
  if (row.expiresAt.getTime() <= Date.now()) throw new AccessDenied("The authorization request expired");
  return continueAuthorization({ params, client, browserId, request: row, target: ctx.target });
}
