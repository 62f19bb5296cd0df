import { findHandsetRequest } from "../../out-of-band/find-handset-request";
import { AccessDenied } from "../errors";
import { awaitMobileAnswer } from "./await-mobile-answer";
import { AuthorizePageError } from "./errors";
import { loadBoundRequest, UNKNOWN_REQUEST } from "./load-bound-request";
import { runAuthorizeStep } from "./respond-with-error";

/**
 * GET /authorize/wait/{id}: where a `prompt=mobile` request waits for the handset (the waiting page
 * reloads itself here). Bound to the browser that made the request, like /authorize/resume/{id}.
 */
export function handleMobileWait(req: Request, { id }: { id: string }): Promise<Response> {
  return runAuthorizeStep(req, async (ctx) => {
    const { row, params, client } = await loadBoundRequest({ req, id, ctx });
    const device = await findHandsetRequest({ authorizationRequestId: id });
    if (!device) throw new AuthorizePageError("invalid_request", UNKNOWN_REQUEST);
    if (row.status === "denied") throw new AccessDenied("The subscriber rejected the request on their handset");
    return awaitMobileAnswer({ requestId: id, device, params, client, target: ctx.target!,
      expiresAt: row.expiresAt, signal: req.signal });
  });
}
