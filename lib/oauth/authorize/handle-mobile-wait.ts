import { getClient } from "../../clients/get-client";
import { db } from "../../db";
import { randomToken, safeEqual } from "../../crypto";
import { browserIdHash, readBrowserId } from "../../sessions/browser-cookie";
import { AccessDenied } from "../errors";
import { awaitMobileAnswer } from "./await-mobile-answer";
import { AuthorizePageError } from "./errors";
import { REQUEST_ID_PATTERN } from "./handle-resume";
import { alreadyCompleted } from "./issue-code";
import type { RedirectTarget } from "./redirect-to-client";
import { respondWithError } from "./respond-with-error";
import type { AuthorizationParams } from "./types";

const UNKNOWN = "This request is unknown, belongs to another browser or has expired. Return to the application and start again.";

/**
 * GET /authorize/wait/{id}: where a `prompt=mobile` request whose first response ended before the
 * handset answered keeps waiting (the waiting page reloads itself here). Bound to the browser that
 * made the request, like /authorize/resume/{id}.
 */
export async function handleMobileWait(req: Request, { id }: { id: string }): Promise<Response> {
  const requestId = req.headers.get("x-request-id")?.slice(0, 64) || randomToken(9);
  const ctx: { target?: RedirectTarget } = {};
  let res: Response;
  try {
    res = await wait(req, id, ctx);
  } catch (err) {
    res = respondWithError(err, ctx.target, requestId);
  }
  res.headers.set("X-Request-Id", requestId);
  return res;
}

async function wait(req: Request, id: string, ctx: { target?: RedirectTarget }): Promise<Response> {
  const browserId = readBrowserId(req.headers.get("cookie"));
  const row = REQUEST_ID_PATTERN.test(id) && browserId
    ? await db.authorizationRequest.findUnique({
        where: { id }, select: { status: true, params: true, browserIdHash: true, expiresAt: true },
      })
    : null;
  if (!row || !browserId || !safeEqual(row.browserIdHash, browserIdHash(browserId))) {
    throw new AuthorizePageError("invalid_request", UNKNOWN);
  }
  if (row.status === "completed") throw alreadyCompleted();
  const params = JSON.parse(row.params) as AuthorizationParams;
  const device = await db.deviceRequest.findUnique({ where: { authorizationRequestId: id }, select: { id: true } });
  const client = await getClient({ clientId: params.clientId });
  if (!device || !client?.active || !client.redirectUris.includes(params.redirectUri)) {
    throw new AuthorizePageError("invalid_request", UNKNOWN);
  }
  ctx.target = { redirectUri: params.redirectUri, state: params.state, status: 302 };
  if (row.status === "denied") throw new AccessDenied("The subscriber rejected the request on their handset");
  return awaitMobileAnswer({ requestId: id, deviceRequestId: device.id, params, client, target: ctx.target,
    expiresAt: row.expiresAt, signal: req.signal });
}
