import { getClient, type RegisteredClient } from "../../clients/get-client";
import { db } from "../../db";
import { safeEqual } from "../../crypto";
import { browserIdHash, readBrowserId } from "../../sessions/browser-cookie";
import { AuthorizePageError } from "./errors";
import { alreadyCompleted } from "./issue-code";
import type { StepContext } from "./respond-with-error";
import type { AuthorizationParams } from "./types";

export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const UNKNOWN_REQUEST =
  "This sign-in request is unknown, belongs to another browser or has expired. Return to the application and start again.";

/**
 * The pending authorization `id`, only for the browser it was bound to (the cookie must match:
 * CSRF / session-fixation defence), not yet completed, whose client and redirect URI are still
 * registered. Everything else is our error page; once this returns, `ctx.target` is set so later
 * errors go to the client.
 */
export async function loadBoundRequest({ req, id, ctx }: { req: Request; id: string; ctx: StepContext }) {
  const browserId = readBrowserId(req.headers.get("cookie"));
  const row = REQUEST_ID_PATTERN.test(id) && browserId
    ? await db.authorizationRequest.findUnique({
        where: { id }, select: { id: true, status: true, sessionId: true, params: true, browserIdHash: true, expiresAt: true },
      })
    : null;
  if (!row || !browserId || !safeEqual(row.browserIdHash, browserIdHash(browserId))) {
    throw new AuthorizePageError("invalid_request", UNKNOWN_REQUEST);
  }
  if (row.status === "completed") throw alreadyCompleted();
  const params = JSON.parse(row.params) as AuthorizationParams;
  const client: RegisteredClient | null = await getClient({ clientId: params.clientId });
  if (!client?.active || !client.redirectUris.includes(params.redirectUri)) {
    throw new AuthorizePageError("invalid_request", "The application is no longer available.");
  }
  ctx.target = { redirectUri: params.redirectUri, state: params.state, status: 302 };
  return { row, params, client, browserId };
}
